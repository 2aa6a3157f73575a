import { normalizeCatalystId } from '@cr/contract/rules';
import { AccountStatus } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { forbidden, unauthorized } from '../../errors';
import type { Jwt } from '../../lib/jwt';
import type { RateLimiter } from '../../lib/rate-limit';
import { createGuessGuard, type GuessLimits } from './guess-guard';
import type { PasswordHasher } from '../../lib/password-hasher';
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
}

export interface Session {
  accessToken: string;
  refreshToken: string;
}

export function createSessionService(deps: SessionDeps) {
  const guard = createGuessGuard(deps.rateLimiter, deps.limits, 'login');
  return {
    async login(username: string, password: string, address: string): Promise<Session> {
      const catalystId = normalizeCatalystId(username).id;
      const attempt = await guard.attempt(catalystId, address);
      const account = await findAccountByCatalystId(deps.db, catalystId);
      // Guesses must not starve real logins (issue 26 item 1): an unknown account or an address that failed lately
      // waits in the queue's suspect share, behind the clean logins of accounts that exist.
      const valid = account
        ? await deps.passwords.verify(account.passwordHash, password, { suspect: !attempt.clean, source: address })
        : await deps.passwords.verifyAgainstDummy(password, address);
      if (!account || !valid) {
        await attempt.failed();
        throw unauthorized(sessionMessages.wrongCredentials);
      }
      await attempt.succeeded();
      if (account.status === AccountStatus.banned) throw forbidden(sessionMessages.banned);
      const { token, familyId } = await deps.refreshTokens.start(account.userId);
      return { accessToken: await deps.jwt.sign({ userId: account.userId, sessionId: familyId }), refreshToken: token };
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
