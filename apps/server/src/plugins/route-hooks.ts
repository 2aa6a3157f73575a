import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend';

/** How many hooks of each kind addRouteHook has put in front of a route's own. */
const added = new WeakMap<object, Partial<Record<HookName, number>>>();

/**
 * Adds a plugin's hook to one route, from an `onRoute` hook, so that it runs only on the routes that need it and knows
 * its route's options without reading `request.routeOptions` (Fastify builds a new object on every read of it). The
 * hooks added this way run in the order they were added, before the route's own hooks of that kind, as global hooks
 * registered at the same place would (after the global hooks, of which only plugins' remain).
 */
export function addRouteHook<Name extends HookName>(route: RouteOptions, name: Name, hook: NonNullable<RouteOptions[Name]>): void {
  let counts = added.get(route);
  if (!counts) added.set(route, (counts = {}));
  const at = counts[name] ?? 0;
  const existing = route[name] === undefined ? [] : [route[name]].flat();
  (route as Record<HookName, unknown>)[name] = [...existing.slice(0, at), hook, ...existing.slice(at)];
  counts[name] = at + 1;
}
