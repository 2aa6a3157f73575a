import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors';

export const crossSiteMessage = 'This request must come from the Community Review site itself.';

/**
 * Refuses a cookie-setting request sent by another site's page (login CSRF, issue 26 item 8): a forged login would
 * sign the victim in as the attacker, whose reviews and profile they would then fill in. Browsers tell where a
 * request comes from with `Sec-Fetch-Site` (all current ones) and `Origin` (on every POST); a request that carries
 * neither — a script, curl, the reference API's clients — is not a browser's and is let through. The site's own
 * origins are PUBLIC_URL's and the one the request was addressed to (a development proxy keeps the browser's Host).
 */
export function refuseCrossSite(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async (request: FastifyRequest) => {
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite !== undefined) {
      if (fetchSite === 'same-origin' || fetchSite === 'none') return;
      throw forbidden(crossSiteMessage);
    }
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (origin === publicOrigin || origin === `${request.protocol}://${request.host}`) return;
    throw forbidden(crossSiteMessage);
  };
}
