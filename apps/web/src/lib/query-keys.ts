/**
 * The roots of every query key, one per kind of server data. Each feature builds its keys from its root (see
 * `reviewsKeys`, `proposalsKeys`, `eventsKeys`), and a feature that must mark another's data stale names the root or
 * the shared key here rather than spelling a string: features may not import each other, so these are their common
 * vocabulary. Keys go from general to specific, so invalidating a root (or any prefix) reaches everything below it.
 */
export const queryRoots = {
  admin: ['admin'],
  appeals: ['appeals'],
  categories: ['categories'],
  configs: ['configs'],
  events: ['events'],
  moderations: ['moderations'],
  proposals: ['proposals'],
  reviews: ['reviews'],
  users: ['users'],
} as const satisfies Record<string, readonly [string]>;

export type QueryRoot = keyof typeof queryRoots;

/** Prefixes below the roots that a write makes stale (lib/invalidations) while the feature owning them builds on them. */
export const familyKeys = {
  /** Every event's reviews configuration (switches and windows). */
  reviewsConfigs: [...queryRoots.configs, 'reviews'] as const,
  /** Every event's level qualifiers. */
  levelQualifiers: [...queryRoots.configs, 'levels'] as const,
  /** Every event's run flags ('generated' of each run). */
  runFlags: [...queryRoots.configs, 'allocations'] as const,
  /** The status messages. */
  status: [...queryRoots.configs, 'status'] as const,
  /** Every event's deadline reminder settings. */
  remindersConfigs: [...queryRoots.configs, 'notifications'] as const,
  /** Every event's appeal settings (issue 28 item 2). */
  appealsConfigs: [...queryRoots.configs, 'appeals'] as const,
  /** The logged-in user's notification preferences. */
  notificationPreferences: [...queryRoots.users, 'notifications'] as const,
  /** The logged-in user's API tokens (issue 29). */
  apiTokens: [...queryRoots.users, 'tokens'] as const,
  /** What an unsubscribe link would do (its kind, and whether it is done). */
  unsubscribeStates: [...queryRoots.users, 'unsubscribe'] as const,
  /** Every round's dashboard (the admin's Overview). */
  dashboards: [...queryRoots.admin, 'dashboard'] as const,
  /** Every user's profile as an admin sees it, looked up by Catalyst ID. */
  userProfiles: [...queryRoots.admin, 'user'] as const,
  /** The open data of the rounds (issue 48): which are published, and each round's page. */
  openData: [...queryRoots.events, 'open-data'] as const,
  /** The mail queue as the admin sees it. */
  mailQueue: [...queryRoots.admin, 'mail-queue'] as const,
};

/** Keys that more than one feature names: the events feature reads them, the admin's runs make them stale. */
export const sharedKeys = {
  /** An event's categories (objectives). */
  categories: (eventId: number) => [...queryRoots.categories, eventId] as const,
  /** An event's allocation flags ('generated' of each run). */
  allocationFlags: (eventId: number) => [...familyKeys.runFlags, eventId] as const,
  /** The logged-in user's info as the profile shows it. */
  me: [...queryRoots.users, 'me'] as const,
};
