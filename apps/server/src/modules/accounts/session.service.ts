import { normalizeCatalystId } from '@cr/contract/rules';
import { lifecycleMessages } from '@cr/contract/lifecycle';
import { AccountStatus } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { AppError, forbidden, tooManyRequests, unauthorized } from '../../errors';
import type { Jwt } from '../../lib/jwt';
import type { RateLimiter } from '../../lib/rate-limit';
import type { DeviceCookies } from './device-cookies';
import { createGuessGuard, type GuessLimits } from './guess-guard';
import { serverBusy, type PasswordHasher } from '../../lib/password-hasher';
import { findAccountByCatalystId, findAccountById } from './accounts.repository';
import type { RefreshTokens } from './refresh-tokens';

export const sessionMessages = {
  wrongCredentials: 'Incorrect Catalyst ID or password.',
  banned: 'This account is banned.',
  sessionEnded: 'Your session has ended. Please log in again.',
};

export interface SessionDeps {
  db: Db;
  jwt: Jwt;
  refreshTokens: RefreshTokens;
  rateLimiter: RateLimiter;
  limits: GuessLimits;
  /** Bounded hashing: a full queue answers 503, which counts as no attempt (only a wrong password does). */
  passwords: PasswordHasher;
  /** Signs and reads the device cookies that exempt a device that has logged in before from its address's lock-out. */
  deviceCookies: DeviceCookies;
  /** How long a refusal decided before the request is read waits before it is answered (LOGIN_REFUSAL_PAUSE_MS). */
  refusalPauseMs?: number;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
}

/** Refusals held at once at most; beyond, they are answered without their pause (a pause must cost next to nothing). */
const MAX_PAUSED = 1000;

export function createSessionService(deps: SessionDeps) {
  const guard = createGuessGuard(deps.rateLimiter, deps.limits, 'login');
  let paused = 0;
  const pause = async () => {
    if (!deps.refusalPauseMs || paused >= MAX_PAUSED) return;
    paused += 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, deps.refusalPauseMs));
    } finally {
      paused -= 1;
    }
  };
  return {
    /**
     * What can be refused before the request's body is read or the database asked (issue 45 item 15): without a device
     * cookie this server signed, an address known to be locked out (429), or one whose share of the hashing queue is
     * taken (503 with Retry-After). Such a refusal is answered after `refusalPauseMs`: a client that asks again as soon
     * as it is answered (a guessing flood) then asks once per pause and connection, instead of as fast as the server
     * can refuse. Throws; returns when the login must be looked at.
     */
    async refuseEarly(address: string, deviceCookie: string | undefined): Promise<void> {
      if (deps.deviceCookies.read(deviceCookie)) return;
      const seconds = guard.addressLockedFor(address);
      const refusal = seconds !== undefined ? tooManyRequests(seconds) : deps.passwords.gate.refuses(address) ? serverBusy() : null;
      if (!refusal) return;
      await pause();
      throw refusal;
    },

    /**
     * A device cookie valid for this login name (issue 45 item 15) makes the attempt a trusted one: its address's
     * lock-out does not apply, its hash waits in the clean share under the device's own per-source cap, and only its
     * own failures count. Without one (none, forged, expired, another name's) the attempt is throttled as before.
     * A success answers a new device cookie.
     */
    async login(username: string, password: string, address: string, deviceCookie?: string): Promise<Session & { deviceCookie: string }> {
      const catalystId = normalizeCatalystId(username).id;
      const device = deps.deviceCookies.deviceFor(deviceCookie, catalystId);
      // A trusted attempt's hashes count under its login name, not the cookie: the cookies of one account (each login
      // answers a new one) share one per-source cap, so collecting many cannot fill the hashing queue.
      const source = device ? `device-login:${catalystId}` : address;
      // A request that came past the early refusal on a cookie that is not this name's is refused here as it would
      // have been there: after the pause.
      const refuse = async (refusal: unknown): Promise<never> => {
        const throttled = refusal instanceof AppError && (refusal.statusCode === 429 || refusal.statusCode === 503);
        if (throttled && !device && deps.deviceCookies.read(deviceCookie)) await pause();
        throw refusal;
      };
      // No hash to be had: refused before the counters and the account are read.
      if (deps.passwords.gate.refuses(source)) return refuse(serverBusy());
      const attempt = device ? await guard.trustedAttempt(device) : await guard.attempt(catalystId, address).catch(refuse);
      const account = await findAccountByCatalystId(deps.db, catalystId);
      // Guesses must not starve real logins (issue 26 item 1): an unknown account or an address that failed lately
      // waits in the queue's suspect share, behind the clean logins of accounts that exist.
      const valid = account
        ? await deps.passwords.verify(account.passwordHash, password, { suspect: !attempt.clean, source })
        : await deps.passwords.verifyAgainstDummy(password, source);
      if (!account || !valid) {
        await attempt.failed();
        throw unauthorized(sessionMessages.wrongCredentials);
      }
      await attempt.succeeded();
      // The admin's reason (issue 47): "This account is banned: <reason>"; a ban written without one keeps the short text.
      if (account.status === AccountStatus.banned) {
        throw forbidden(account.bannedReason ? lifecycleMessages.banned(account.bannedReason) : sessionMessages.banned);
      }
      const { token, familyId } = await deps.refreshTokens.start(account.userId);
      return {
        accessToken: await deps.jwt.sign({ userId: account.userId, sessionId: familyId }),
        refreshToken: token,
        deviceCookie: deps.deviceCookies.issue(catalystId),
      };
    },

    async refresh(refreshToken: string | undefined): Promise<Session> {
      if (!refreshToken) throw unauthorized(sessionMessages.sessionEnded);
      const outcome = await deps.refreshTokens.rotate(refreshToken);
      if (outcome.kind !== 'rotated') throw unauthorized(sessionMessages.sessionEnded);
      const account = await findAccountById(deps.db, outcome.userId);
      if (!account || account.status === AccountStatus.banned) {
        await deps.refreshTokens.revokeByToken(outcome.token);
        throw unauthorized(sessionMessages.sessionEnded);
      }
      return { accessToken: await deps.jwt.sign({ userId: outcome.userId, sessionId: outcome.familyId }), refreshToken: outcome.token };
    },

    /** A new access token for a session that is on: a password change answers one, as the reference API does. */
    accessToken(userId: number, sessionId: string): Promise<string> {
      return deps.jwt.sign({ userId, sessionId });
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (refreshToken) await deps.refreshTokens.revokeByToken(refreshToken);
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
