import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, translateMessage } from '../lib/i18n';

export interface WebEnv {
  API_BASE: string;
  BUILD_REVISION?: string | undefined;
}

/** The web app's runtime configuration, read by index.html before the bundle (`window.__ENV__`). */
export function envScript(env: WebEnv): string {
  const value = { API_BASE: env.API_BASE, BUILD_REVISION: env.BUILD_REVISION ?? '' };
  return `window.__ENV__ = ${JSON.stringify(value).replace(/</g, '\\u003c')};\n`;
}

/** Serves the built web app with SPA fallback, and `/env.js`. API paths that match nothing answer JSON 404. */
export async function registerStatic(app: FastifyInstance, options: { webDist: string; apiBase: string; env: WebEnv }) {
  app.get('/env.js', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) =>
    reply.type('application/javascript').header('cache-control', 'no-cache').send(envScript(options.env)),
  );
  const hasWeb = existsSync(join(options.webDist, 'index.html'));
  // index.html names the current build's files: never cached without asking (a new build's names are new).
  const sendIndex = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts): sent with Content-Encoding and
      // Vary: accept-encoding where the browser accepts them.
      preCompressed: true,
      // Source maps are built 'hidden' (for error reports) and never served: a *.map answers 404; nor is the build's
      // own data under .vite/.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !pathName.startsWith('/.vite/'),
      // @fastify/static 10 passes the Fastify reply here (not Node's response).
      setHeaders: (reply, path) => {
        if (path.includes(`${join('assets', '')}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    // The wildcard route would answer the root directory itself with 403 (index: false); / is the app's home.
    app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (request, reply) => sendIndex(request, reply));
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith(options.apiBase) || request.method !== 'GET' || !hasWeb) {
      return reply.code(404).send({ message: translateMessage('Not found.', requestLanguage(request.headers)) });
    }
    if (/\.[a-z0-9]+$/i.test(path) && !path.endsWith('.html')) {
      return reply.code(404).send({ message: translateMessage('Not found.', requestLanguage(request.headers)) });
    }
    return sendIndex(request, reply);
  });
}
