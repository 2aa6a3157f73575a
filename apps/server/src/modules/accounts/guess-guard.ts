import type { Config } from '../../config';
import { tooManyRequests } from '../../errors';
import type { RateLimiter } from '../../lib/rate-limit';

/** How hard password guessing is throttled (README "Security"); all counts are per rate-limit window. */
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
}

export const guessLimitsOf = (config: Config): GuessLimits => ({
  perAddress: config.LOGIN_LIMIT_PER_ADDRESS,
  perAccountAddress: config.LOGIN_LIMIT_PER_ACCOUNT_ADDRESS,
  backoffAfter: config.LOGIN_LIMIT_PER_ACCOUNT,
  backoffSeconds: config.LOGIN_BACKOFF_SECONDS,
  backoffMaxSeconds: config.LOGIN_BACKOFF_MAX_SECONDS,
});

/** Seconds an account waits after its latest failure, given how many failures its current run has. */
export function backoffSeconds(failures: number, limits: GuessLimits): number {
  if (failures < limits.backoffAfter) return 0;
  const doublings = Math.min(failures - limits.backoffAfter, 40);
  return Math.min(limits.backoffMaxSeconds, limits.backoffSeconds * 2 ** doublings);
}

export interface GuessAttempt {
  /** The password was wrong: one more failure for the account's back-off. */
  failed(): Promise<void>;
  /** The password was right: the attempt is not held against the address, and this address's failures on the account are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Brute-force protection for a password check that does not hand out a denial of service (issue 13 item 2): failures
 * are counted per address and per (account, address), so guesses from elsewhere never lock the owner out, and an
 * account that many addresses guess at backs off exponentially — for the addresses that have already failed on it.
 * An address without failures on the account still gets its password checked.
 */
export function createGuessGuard(limiter: RateLimiter, limits: GuessLimits, scope: string) {
  return {
    async attempt(account: string, address: string): Promise<GuessAttempt> {
      const addressKey = `${scope}:address:${address}`;
      const pairKey = `${scope}:account-address:${account}:${address}`;
      const accountKey = `${scope}:account:${account}`;
      await limiter.hit(addressKey, limits.perAddress);
      const pairAttempts = await limiter.hit(pairKey, limits.perAccountAddress);
      if (pairAttempts > 1) {
        const run = await limiter.failures(accountKey);
        if (run) {
          const waitMs = backoffSeconds(run.count, limits) * 1000 - (Date.now() - run.lastAt.getTime());
          if (waitMs > 0) throw tooManyRequests(Math.ceil(waitMs / 1000));
        }
      }
      return {
        failed: async () => {
          await limiter.fail(accountKey);
        },
        succeeded: async () => {
          await limiter.refund(addressKey);
          await limiter.clear(pairKey);
        },
      };
    },
  };
}
export type GuessGuard = ReturnType<typeof createGuessGuard>;
