import type { Config } from '../../config';
import { tooManyRequests } from '../../errors';
import type { RateLimiter } from '../../lib/rate-limit';

/** How hard password guessing is throttled (docs/security.md); all counts are per rate-limit window. */
export interface GuessLimits {
  /** Failed attempts from one address, whatever the account. */
  perAddress: number;
  /** Failed attempts on one account from one address. */
  perAccountAddress: number;
  /** Failed attempts on one account, from any address, before its back-off starts. */
  backoffAfter: number;
  /** The first back-off; it doubles with each further failure, up to `backoffMaxSeconds`. */
  backoffSeconds: number;
  backoffMaxSeconds: number;
  /** Failed attempts with one device cookie before that cookie is locked out (issue 45 item 15). */
  perDevice: number;
}

export const guessLimitsOf = (config: Config): GuessLimits => ({
  perAddress: config.LOGIN_LIMIT_PER_ADDRESS,
  perAccountAddress: config.LOGIN_LIMIT_PER_ACCOUNT_ADDRESS,
  backoffAfter: config.LOGIN_LIMIT_PER_ACCOUNT,
  backoffSeconds: config.LOGIN_BACKOFF_SECONDS,
  backoffMaxSeconds: config.LOGIN_BACKOFF_MAX_SECONDS,
  perDevice: config.LOGIN_LIMIT_PER_DEVICE,
});

/** Seconds an account waits after its latest failure, given how many failures its current run has. */
export function backoffSeconds(
  failures: number,
  limits: Pick<GuessLimits, 'backoffAfter' | 'backoffSeconds' | 'backoffMaxSeconds'>,
): number {
  if (failures < limits.backoffAfter) return 0;
  const doublings = Math.min(failures - limits.backoffAfter, 40);
  return Math.min(limits.backoffMaxSeconds, limits.backoffSeconds * 2 ** doublings);
}

export interface GuessAttempt {
  /**
   * Neither this address nor this (account, address) pair has failed in the window: a login that exists and is clean
   * gets the hashing queue's protected share (lib/password-hasher, issue 26 item 1).
   */
  clean: boolean;
  /** The password was wrong: one more failure for the address, the pair and the account's back-off. */
  failed(): Promise<void>;
  /** The password was right: this address's failures on the account are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Brute-force protection for a password check that does not hand out a denial of service (issue 13 item 2): failures
 * are counted per address and per (account, address), so guesses from elsewhere never lock the owner out, and an
 * account that many addresses guess at backs off exponentially — for the addresses that have already failed on it.
 * An address without failures on the account still gets its password checked.
 *
 * Only failures count (issue 26 item 0): the checks read the counters, and only a wrong password adds to them. A
 * correct login, or an attempt refused with 429, counts against nothing — so correct logins from one address (a
 * reverse proxy's, an office's) can never lock that address out.
 */
export function createGuessGuard(limiter: RateLimiter, limits: GuessLimits, scope: string) {
  const lockedAddresses = createLockMemo();
  return {
    /**
     * Seconds until this address may try again, when it is known to be locked out — read from memory, without the
     * database: a flood's refusals cost next to nothing (issue 45 item 15). Undefined: not known to be locked.
     */
    addressLockedFor(address: string): number | undefined {
      return lockedAddresses.secondsLeft(address);
    },

    async attempt(account: string, address: string): Promise<GuessAttempt> {
      const known = lockedAddresses.secondsLeft(address);
      if (known !== undefined) throw tooManyRequests(known);
      const addressKey = `${scope}:address:${address}`;
      const pairKey = `${scope}:account-address:${account}:${address}`;
      const accountKey = `${scope}:account:${account}`;
      const counts = await limiter.peek([addressKey, pairKey, accountKey]);
      const addressFailures = counts.get(addressKey);
      const pairFailures = counts.get(pairKey);
      if (addressFailures && addressFailures.hits >= limits.perAddress) {
        // An address's failures only grow until its window ends (nothing clears them): remember the lock-out until then.
        lockedAddresses.lock(address, addressFailures.retryAfter);
        throw tooManyRequests(addressFailures.retryAfter);
      }
      if (pairFailures && pairFailures.hits >= limits.perAccountAddress) throw tooManyRequests(pairFailures.retryAfter);
      const run = counts.get(accountKey);
      if (pairFailures && run) {
        const waitMs = backoffSeconds(run.hits, limits) * 1000 - (Date.now() - run.startedAt.getTime());
        if (waitMs > 0) throw tooManyRequests(Math.ceil(waitMs / 1000));
      }
      return {
        clean: !addressFailures && !pairFailures,
        failed: async () => {
          await limiter.add(addressKey);
          await limiter.add(pairKey);
          await limiter.fail(accountKey);
        },
        succeeded: async () => {
          if (pairFailures) await limiter.clear(pairKey);
        },
      };
    },

    /**
     * An attempt from a device that holds a valid device cookie for this login name (OWASP's device cookies, issue 45
     * item 15): exempt from the address's and the (account, address) pair's lock-out and from the account's back-off,
     * which guesses from elsewhere feed; only its own failures count, and `perDevice` of them lock the cookie out.
     */
    async trustedAttempt(device: string): Promise<GuessAttempt> {
      const deviceKey = `${scope}:device:${device}`;
      const failures = (await limiter.peek([deviceKey])).get(deviceKey);
      if (failures && failures.hits >= limits.perDevice) throw tooManyRequests(failures.retryAfter);
      return {
        clean: true,
        failed: async () => {
          await limiter.add(deviceKey);
        },
        succeeded: async () => {},
      };
    },
  };
}

const LOCK_MEMO_SIZE = 10_000;

/**
 * Addresses known to be locked out, each until its window ends. Bounded: when full, the ended ones go, then the
 * oldest — forgetting one only costs a database read the next time it asks.
 */
function createLockMemo() {
  const until = new Map<string, number>();
  return {
    secondsLeft(address: string): number | undefined {
      const end = until.get(address);
      if (end === undefined) return undefined;
      const left = Math.ceil((end - Date.now()) / 1000);
      if (left > 0) return left;
      until.delete(address);
      return undefined;
    },
    lock(address: string, seconds: number) {
      if (until.size >= LOCK_MEMO_SIZE) {
        const now = Date.now();
        for (const [key, end] of until) if (end <= now) until.delete(key);
        if (until.size >= LOCK_MEMO_SIZE) until.delete(until.keys().next().value!);
      }
      until.set(address, Date.now() + seconds * 1000);
    },
  };
}
export type GuessGuard = ReturnType<typeof createGuessGuard>;
