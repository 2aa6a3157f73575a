import type { FastifyInstance } from 'fastify';
import { ValidationFailure } from '../errors';
import { addRouteHook } from './route-hooks';

/** At most this many unknown names are reported in one answer. */
const MAX_REPORTED = 10;

/**
 * Unknown query parameters are refused with a 422 naming each (issue 17): a filter the server does not know would
 * otherwise be ignored and answer wrong data without an error. A route's known names are those of its querystring
 * schema (a zod object); a route without one takes none. The API documentation pages are left alone.
 */
export function registerUnknownQueryGuard(app: FastifyInstance, apiBase: string) {
  // A hook of each API route (plugins/route-hooks), which knows its route's names.
  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (!url.startsWith(apiBase) || url.startsWith(`${apiBase}/docs`)) return;
    const schema = route.schema?.querystring as { shape?: Record<string, unknown> } | undefined;
    if (schema && !schema.shape) return;
    const known = new Set(Object.keys(schema?.shape ?? {}));
    addRouteHook(route, 'preValidation', async (request) => {
      const names = Object.keys((request.query ?? {}) as Record<string, unknown>);
      if (names.length === 0) return;
      const unknown = names.filter((name) => !known.has(name)).slice(0, MAX_REPORTED);
      if (unknown.length === 0) return;
      throw new ValidationFailure(
        unknown.map((name) => ({ loc: ['query', name], msg: `Unknown query parameter '${name}'.`, type: 'unknown_parameter' })),
      );
    });
  });
}
