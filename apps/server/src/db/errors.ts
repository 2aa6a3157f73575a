/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or undefined for any other error. Drizzle wraps driver
 * errors, so the cause chain is searched. Lets a service answer 409 when a concurrent request won the race that its
 * own existence check could not see.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return undefined;
}

/** Whether an error (or its cause) is PostgreSQL's lock_not_available (a NOWAIT lock someone else holds). */
export function lockNotAvailable(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '55P03') return true;
  }
  return false;
}

/** Socket errors of a database connection that is refused, dropped or unreachable. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** node-postgres's own words for a connection that ended or could not be had in time. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end/i;

/**
 * Whether an error (or its cause) means the database is away rather than the request wrong: a refused or dropped
 * connection, PostgreSQL shutting down or starting up (57P01–57P03), a connection exception (class 08) or too many
 * connections (53300). The API answers these 503 (plugins/error-handler) and the pool reconnects on its own.
 */
export function databaseUnavailable(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
    }
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}
