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
