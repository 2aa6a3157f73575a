import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Browser features the app never uses: denied to the page and to anything it embeds. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

export const HSTS = 'max-age=15552000; includeSubDomains';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets with these options, computed once: they depend on nothing in a request (no nonces, no
 * directive functions), and building them again per request — parsing the CSP directives — was 3 % of a list
 * request's CPU (issue 16).
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return headers;
}

/**
 * Security headers of every answer (issue 13 item 13). helmet's defaults, with:
 * - a CSP whose img-src is the app's own origin and data: only, so that an image in a proposal or a status message
 *   cannot reach a third party (the web app also turns such images into links);
 * - HSTS only where the app is served over https (PUBLIC_URL https, or an https request), never on plain http, where
 *   it would pin a developer's localhost to https;
 * - a Permissions-Policy;
 * - `Cache-Control: no-store` on every API answer but an anonymous read: a signed-in caller's, one to a request with a
 *   cookie (the refresh), and every write's (the login's tokens).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { apiBase: string; https: boolean }) {
  const fixed = { ...helmetHeaders(), 'permissions-policy': PERMISSIONS_POLICY };
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(fixed);
    if (options.https || request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Anything but an anonymous read: a bearer token, a (refresh) cookie, or a write such as the login.
    const personal =
      request.url.startsWith(options.apiBase) &&
      (request.user !== null ||
        request.headers.authorization !== undefined ||
        request.headers.cookie !== undefined ||
        (request.method !== 'GET' && request.method !== 'HEAD'));
    if (personal) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
