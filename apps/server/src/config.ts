import { availableParallelism } from 'node:os';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');
const positiveInt = z.coerce.number().int().positive();
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));
const optionalUrl = optionalText.pipe(z.url().optional());
/** The pause before a login refused unread is answered (issue 45 item 15); the bench asks for it by name. */
export const LOGIN_REFUSAL_PAUSE_MS_DEFAULT = 1000;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  PUBLIC_URL: optionalUrl,
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Community Review <no-reply@localhost>'),
  /** Mails this instance hands to SMTP per second at most (a token bucket; each instance has its own). */
  MAIL_RATE_PER_SECOND: z.coerce.number().positive().max(100_000).default(20),
  /** Requests a minute one API token may make, per server instance (issue 29 item 3). */
  API_TOKEN_RATE_PER_MINUTE: z.coerce.number().int().positive().max(1_000_000).default(600),
  /**
   * How long a claimed mail belongs to the instance sending it: when the instance dies, another one sends the mail
   * after this (issue 27). Longer than one batch's sending (the SMTP timeouts are 10 s to connect, 30 s per step).
   */
  MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  /** Days a sent mail keeps its subject, body and link; then only its row stays, for the queue's counts (issue 47). */
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  CATALYST_REGISTRY: z.enum(['local', 'gateway']).default('local'),
  CATALYST_GATEWAY_URL: optionalUrl,
  VERIFICATION_PROVIDER: z.enum(['none', 'provider']).default('none'),
  VERIFICATION_URL: optionalUrl,
  VERIFICATION_WEBHOOK_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
  REGISTRY_RECHECK_SECONDS: z.coerce.number().int().min(0).default(60),
  /** Issue 45 item 14: megabytes of the most used relations read into the page cache before listening (pg_prewarm); 0: none. */
  WARM_UP_PREWARM_MB: z.coerce.number().int().min(0).default(1024),
  PROPOSALS_SOURCE_URL: optionalUrl,
  /** Hosts besides PROPOSALS_SOURCE_URL's an admin may import proposals from (comma-separated; lib/outbound). */
  GATEWAY_ALLOWLIST: z.string().default(''),
  /** Lets the gateway import reach loopback and private network addresses (an internal gateway; tests). */
  GATEWAY_ALLOW_PRIVATE: bool.default(false),
  BUILD_REVISION: optionalText,
  API_BASE: z.string().default('/api/reviews'),
  ADMIN_CATALYST_IDS: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60, 'must be at least 60 (the web app refreshes 50 s before expiry)')
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: positiveInt.default(14),
  /** How long a just-rotated refresh token still answers its successor (concurrent refreshes); 0 turns it off. */
  REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).max(300, 'must be at most 300').default(30),
  // Password guessing (docs/security.md): failures per window, then an exponential back-off per account.
  LOGIN_LIMIT_PER_ACCOUNT: positiveInt.default(10),
  LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: positiveInt.default(5),
  LOGIN_LIMIT_PER_ADDRESS: positiveInt.default(100),
  LOGIN_BACKOFF_SECONDS: positiveInt.default(1),
  LOGIN_BACKOFF_MAX_SECONDS: positiveInt.default(15 * 60),
  /** Device cookies (issue 45 item 15): failures with one device cookie, per window, before it is locked out. */
  LOGIN_LIMIT_PER_DEVICE: positiveInt.default(5),
  /** How long a device cookie (issued on each login) keeps its device exempt from its address's lock-out. */
  LOGIN_DEVICE_COOKIE_DAYS: positiveInt.default(180),
  /**
   * A login refused before it is read (its address locked out, or its address's share of the hashing queue taken) is
   * answered after this pause (ms), so a flood of guesses asks at most once a pause per connection; 0: at once.
   */
  LOGIN_REFUSAL_PAUSE_MS: z.coerce.number().int().min(0).max(10_000).default(LOGIN_REFUSAL_PAUSE_MS_DEFAULT),
  RESET_LIMIT_PER_ACCOUNT: positiveInt.default(5),
  RESET_LIMIT_PER_ADDRESS: positiveInt.default(30),
  REGISTER_LIMIT_PER_ADDRESS: positiveInt.default(20),
  EMAIL_CHANGE_LIMIT_PER_ACCOUNT: positiveInt.default(5),
  EMAIL_CHANGE_LIMIT_PER_ADDRESS: positiveInt.default(20),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(15 * 60),
  /** Password hashes computed at once (argon2id is CPU-bound): one less than the cores, at least 1 (lib/password-hasher). */
  PASSWORD_HASH_CONCURRENCY: positiveInt.default(Math.max(1, availableParallelism() - 1)),
  /** Logins, sign-ups and password changes waiting for a hash slot; beyond this they answer 503 at once. */
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(64),
  /** Hashes one client address may have running or waiting at once (logins and password changes); beyond: 503. */
  PASSWORD_HASH_PER_ADDRESS: positiveInt.default(16),
  /** Nice value of the hashing threads (0 = as the server, 19 = only when the CPU is otherwise idle). */
  PASSWORD_HASH_NICENESS: z.coerce.number().int().min(0).max(19).default(10),
  /** argon2id's memory (KiB) and passes for new password hashes: OWASP's minimum (19 MiB, 2) unless set. Lower only
   *  for tests (the server warns at start); a stored hash keeps the parameters it was made with. */
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(8).max(4_194_304).default(19_456),
  PASSWORD_HASH_ITERATIONS: z.coerce.number().int().min(1).max(100).default(2),
  BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  IMPORT_BODY_LIMIT_BYTES: positiveInt.default(64 * 1024 * 1024),
  SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  MAIL_OUTBOX_API: bool.default(false),
  /** Lets a client without an admin session read the outbox API (header `x-outbox-token`); tests and development only. */
  MAIL_OUTBOX_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters long').optional()),
  NODE_ENV: optionalText,
  WEB_DIST: optionalText,
  TRUST_PROXY: bool.default(false),
  /**
   * true: the server applies pending migrations as it starts (one instance at a time). false: it refuses to start
   * while any are pending; the operator runs `npm run cli -- migrate` first (the upgrade procedure in docs/deployment.md).
   */
  MIGRATE_ON_START: bool.default(true),
  /** SIGTERM/SIGINT: how long in-flight requests and the current admin run's transaction get before the process exits. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** `GET /metrics` (Prometheus) on the API port, for a bearer of this token; unset (and no METRICS_PORT): no metrics. */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters long').optional()),
  /** `GET /metrics` without a token on a port of its own (bind it to a private interface: METRICS_HOST). */
  METRICS_PORT: optionalText.pipe(
    z.string().regex(/^\d+$/, 'must be a port number').transform(Number).pipe(z.number().int().min(1).max(65535)).optional(),
  ),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /**
   * Load shedding (@fastify/under-pressure): above this event-loop delay (ms) or heap share the API answers 503 with
   * Retry-After instead of queueing more work; 0 turns a check off. The delay's default: 1000 on PostgreSQL, off on
   * the embedded database (its queries run on the server's own thread, so a long one is lag but no overload).
   */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: optionalText.pipe(
    z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').transform(Number).optional(),
  ),
  OVERLOAD_MAX_HEAP_USED_RATIO: z.coerce.number().min(0).max(1).default(0.98),
  OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
});

export type RawConfig = z.infer<typeof schema>;
export type Config = RawConfig & { publicUrl: string; adminCatalystIds: string[]; secureCookies: boolean; gatewayAllowlist: string[] };

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = result.data;
  if (raw.CATALYST_REGISTRY === 'gateway' && !raw.CATALYST_GATEWAY_URL) {
    throw new ConfigError('Invalid configuration:\n  CATALYST_GATEWAY_URL: required when CATALYST_REGISTRY=gateway');
  }
  if (raw.VERIFICATION_PROVIDER === 'provider') {
    const missing = (['VERIFICATION_URL', 'VERIFICATION_WEBHOOK_SECRET'] as const).filter((name) => !raw[name]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n${missing.map((name) => `  ${name}: required when VERIFICATION_PROVIDER=provider`).join('\n')}`,
      );
    }
  }
  if (raw.LOGIN_BACKOFF_MAX_SECONDS < raw.LOGIN_BACKOFF_SECONDS) {
    throw new ConfigError('Invalid configuration:\n  LOGIN_BACKOFF_MAX_SECONDS: must not be less than LOGIN_BACKOFF_SECONDS');
  }
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, '');
  // The outbox API hands out live reset links: never where real people use the server.
  if (raw.MAIL_OUTBOX_API && (raw.NODE_ENV === 'production' || publicUrl.startsWith('https://'))) {
    throw new ConfigError(
      'Invalid configuration:\n  MAIL_OUTBOX_API: development and tests only; refused when NODE_ENV=production or PUBLIC_URL is https',
    );
  }
  return {
    ...raw,
    publicUrl,
    adminCatalystIds: raw.ADMIN_CATALYST_IDS.split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    secureCookies: publicUrl.startsWith('https://'),
    gatewayAllowlist: raw.GATEWAY_ALLOWLIST.split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  };
}

/** A configuration for tests: embedded in-memory database, quiet logs. */
export function testConfig(overrides: Partial<Record<keyof RawConfig, string>> = {}): Config {
  // Test files sign many accounts up from one address; the rate-limit tests set these limits low.
  const unthrottled = { REGISTER_LIMIT_PER_ADDRESS: '1000000', EMAIL_CHANGE_LIMIT_PER_ADDRESS: '1000000' };
  // No load shedding: PGlite runs on the test's own thread, so a busy machine's event-loop lag is no overload here
  // (the overload tests turn it on).
  const unshed = { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_HEAP_USED_RATIO: '0' };
  // Cheap password hashes: the API tests sign up and log in thousands of times, and argon2id at OWASP's cost was a
  // sixth of the suite's CPU (issue 26 item 18). The tests of the cost itself ask for the defaults.
  const cheapHashes = { PASSWORD_HASH_MEMORY_KIB: '64', PASSWORD_HASH_ITERATIONS: '1' };
  // Refusals answered at once: the tests count them, and a pause each would only add time (one test sets it).
  const unpaused = { LOGIN_REFUSAL_PAUSE_MS: '0' };
  return loadConfig({
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-test-secret-test-secret!',
    ...unthrottled,
    ...unshed,
    ...cheapHashes,
    ...unpaused,
    ...overrides,
  });
}
