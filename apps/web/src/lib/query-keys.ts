/**
 * The roots of every query key, one per kind of server data. Each feature builds its keys from its root (see
 * `reviewsKeys`, `proposalsKeys`, `eventsKeys`), and a feature that must mark another's data stale names the root or
 * the shared key here rather than spelling a string: features may not import each other, so these are their common
 * vocabulary. Keys go from general to specific, so invalidating a root (or any prefix) reaches everything below it.
 */
export const queryRoots = {
  admin: ['admin'],
  categories: ['categories'],
  configs: ['configs'],
  events: ['events'],
  moderations: ['moderations'],
  proposals: ['proposals'],
  reviews: ['reviews'],
  users: ['users'],
} as const satisfies Record<string, readonly [string]>;

export type QueryRoot = keyof typeof queryRoots;

/** Keys that more than one feature names: the events feature reads them, the admin's runs make them stale. */
export const sharedKeys = {
  /** An event's categories (objectives). */
  categories: (eventId: number) => [...queryRoots.categories, eventId] as const,
  /** An event's allocation flags ('generated' of each run). */
  allocationFlags: (eventId: number) => [...queryRoots.configs, 'allocations', eventId] as const,
  /** The logged-in user's info as the profile shows it. */
  me: [...queryRoots.users, 'me'] as const,
};
