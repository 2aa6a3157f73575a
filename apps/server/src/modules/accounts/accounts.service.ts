import { DEFAULT_LANGUAGE, type Language } from '@cr/contract/languages';
import { AccountStatus, UserRole, type NewUser, type UpdateUser, type UserReset } from '@cr/contract/users';
import { normalizeCatalystId } from '@cr/contract/rules';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import { mailTemplates, type Mailer } from '../../adapters/mail';
import type { Db } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden } from '../../errors';
import { hashToken, newToken } from '../../lib/secrets';
import type { AfterResponse } from '../../lib/concurrency';
import type { PasswordHasher } from '../../lib/password-hasher';
import type { RateLimiter } from '../../lib/rate-limit';
import * as repo from './accounts.repository';
import type { Config } from '../../config';
import { createGuessGuard, guessLimitsOf, type GuessLimits } from './guess-guard';
import type { RefreshTokens } from './refresh-tokens';

const HOUR = 60 * 60 * 1000;
export const ACTIVATION_TTL_MS = 48 * HOUR;
export const EMAIL_VERIFICATION_TTL_MS = 48 * HOUR;
export const RESET_TTL_MS = 1 * HOUR;

export const messages = {
  catalystIdTaken: 'This Catalyst ID is already registered.',
  emailTaken: 'This e-mail address is already registered.',
  activationInvalid: 'Your activation link has expired. Please register again.',
  verificationInvalid: 'This e-mail verification link has expired or was already used.',
  resetInvalid: 'This password reset link has expired or was already used. Please request a new one.',
  oldPasswordWrong: 'The old password is not correct.',
  registrationClosed: 'Registration is closed at the moment. Please try again when the next funding round opens.',
};

/** A unique index of catalyst_ids broken by a concurrent request: the same 409 as the existence checks give. */
function rethrowTaken(error: unknown): never {
  const constraint = uniqueViolation(error);
  if (constraint === 'catalyst_ids_catalyst_id_key') throw conflict(messages.catalystIdTaken);
  if (constraint === 'catalyst_ids_email_key') throw conflict(messages.emailTaken);
  throw error;
}

export interface AccountLimits {
  resetPerAccount: number;
  resetPerAddress: number;
  /** Sign-ups and e-mail changes answer whether a Catalyst ID or an e-mail is taken: limited so enumeration is slow. */
  registerPerAddress: number;
  emailChangePerAccount: number;
  emailChangePerAddress: number;
  /** Guessing the old password on a password change: throttled like login (docs/security.md). */
  guess: GuessLimits;
}

export const accountLimitsOf = (config: Config): AccountLimits => ({
  resetPerAccount: config.RESET_LIMIT_PER_ACCOUNT,
  resetPerAddress: config.RESET_LIMIT_PER_ADDRESS,
  registerPerAddress: config.REGISTER_LIMIT_PER_ADDRESS,
  emailChangePerAccount: config.EMAIL_CHANGE_LIMIT_PER_ACCOUNT,
  emailChangePerAddress: config.EMAIL_CHANGE_LIMIT_PER_ADDRESS,
  guess: guessLimitsOf(config),
});

export interface AccountsDeps {
  db: Db;
  mailer: Mailer;
  registry: CatalystRegistry;
  refreshTokens: RefreshTokens;
  rateLimiter: RateLimiter;
  publicUrl: string;
  adminCatalystIds: string[];
  limits: AccountLimits;
  /** Whether sign-ups are open now (the current events' user_registration_enabled switches); open when absent. */
  registrationOpen?: () => Promise<boolean>;
  /** Bounded hashing (lib/password-hasher): a full queue answers 503. */
  passwords: PasswordHasher;
  /** Runs work after the answer (the password-reset mail). */
  afterResponse: AfterResponse;
  /** Told once a new account is committed (the admin's user list drops its cached totals). */
  onAccountCreated?: () => void;
}

export function createAccountsService(deps: AccountsDeps) {
  const { db, mailer } = deps;
  const passwordGuard = createGuessGuard(deps.rateLimiter, deps.limits.guess, 'password-update');
  const adminIds = new Set(deps.adminCatalystIds.map((id) => normalizeCatalystId(id).id));
  const link = (path: string, query: Record<string, string>) => `${deps.publicUrl}${path}?${new URLSearchParams(query)}`;

  async function issueToken(
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    userId: number,
    purpose: 'activation' | 'email_verification' | 'password_reset',
    ttlMs: number,
    payload?: Record<string, string>,
  ) {
    const token = newToken();
    await repo.expireTokens(tx, userId, purpose);
    await repo.insertToken(tx, { userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs), payload });
    return token;
  }

  async function mailPasswordReset(catalystId: string) {
    const account = await repo.findAccountByCatalystId(db, catalystId);
    if (!account?.email || account.status === AccountStatus.banned) return;
    const email = account.email;
    await db.transaction(async (tx) => {
      const token = await issueToken(tx, account.userId, 'password_reset', RESET_TTL_MS);
      await mailer.enqueue(
        tx,
        mailTemplates.passwordReset(email, link('/reset-password', { token }), account.language ?? DEFAULT_LANGUAGE),
      );
    });
    await mailer.flush();
  }

  return {
    /**
     * `language`: the activation mail's, as the request's Accept-Language negotiated it (issue 31); the account keeps
     * no language until the person chooses one.
     */
    async register(input: NewUser, address: string, language: Language = DEFAULT_LANGUAGE): Promise<void> {
      await deps.rateLimiter.hit(`register:address:${address}`, deps.limits.registerPerAddress);
      if (deps.registrationOpen && !(await deps.registrationOpen())) throw forbidden(messages.registrationClosed);
      const catalystId = normalizeCatalystId(input.catalyst_id).id;
      const email = input.email.trim();
      const passwordHash = await deps.passwords.hash(input.password);
      const rbacRegStatus = await deps.registry.registrationStatus(catalystId);
      await db
        .transaction(async (tx) => {
          if (await repo.isCatalystIdTaken(tx, catalystId)) throw conflict(messages.catalystIdTaken);
          if (await repo.isEmailTaken(tx, email)) throw conflict(messages.emailTaken);
          const role = adminIds.has(catalystId) ? UserRole.admin : UserRole.user;
          const userId = await repo.insertAccount(tx, { catalystId, email, passwordHash, role, rbacRegStatus });
          const token = await issueToken(tx, userId, 'activation', ACTIVATION_TTL_MS);
          await mailer.enqueue(tx, mailTemplates.activation(email, link('/account/activation', { token }), language));
        })
        .catch(rethrowTaken);
      deps.onAccountCreated?.();
      await mailer.flush();
    },

    async activate(token: string): Promise<void> {
      await db.transaction(async (tx) => {
        const used = await repo.consumeToken(tx, hashToken(token), 'activation');
        if (!used) throw badRequest(messages.activationInvalid);
        const account = await repo.findAccountById(tx, used.userId);
        if (!account) throw badRequest(messages.activationInvalid);
        if (account.status === AccountStatus.banned) throw badRequest(messages.activationInvalid);
        await repo.updateCatalystId(tx, account.catalystIdRef, {
          status: AccountStatus.active,
          ...(account.emailVerifiedAt ? {} : { emailVerifiedAt: new Date() }),
        });
      });
    },

    async verifyEmail(token: string): Promise<void> {
      await db
        .transaction(async (tx) => {
          const used = await repo.consumeToken(tx, hashToken(token), 'email_verification');
          const account = used && (await repo.findAccountById(tx, used.userId));
          if (!used || !account) throw badRequest(messages.verificationInvalid);
          const email = used.payload?.email ?? account.email;
          if (!email) throw badRequest(messages.verificationInvalid);
          if (await repo.isEmailTaken(tx, email, account.catalystIdRef)) throw conflict(messages.emailTaken);
          await repo.updateCatalystId(tx, account.catalystIdRef, {
            email,
            emailVerifiedAt: new Date(),
            ...(account.status === AccountStatus.inactive ? { status: AccountStatus.email_verified } : {}),
          });
        })
        .catch(rethrowTaken);
    },

    /** Sends a link to confirm a new e-mail address; the address changes when the link is opened. */
    async requestEmailChange(userId: number, email: string, address: string, redirect = '/profile'): Promise<void> {
      await deps.rateLimiter.hit(`email-change:address:${address}`, deps.limits.emailChangePerAddress);
      await deps.rateLimiter.hit(`email-change:account:${userId}`, deps.limits.emailChangePerAccount);
      await db.transaction(async (tx) => {
        const account = await repo.findAccountById(tx, userId);
        if (!account) throw badRequest('Unknown account.');
        if (await repo.isEmailTaken(tx, email, account.catalystIdRef)) throw conflict(messages.emailTaken);
        const token = await issueToken(tx, userId, 'email_verification', EMAIL_VERIFICATION_TTL_MS, { email });
        const verifyLink = link('/account/email-verification', { token, redirect });
        await mailer.enqueue(tx, mailTemplates.emailVerification(email, verifyLink, account.language ?? DEFAULT_LANGUAGE));
      });
      await mailer.flush();
    },

    /**
     * Always succeeds for the caller, whether or not the account exists (no account enumeration): once the limits are
     * checked it answers, and the account is looked up and mailed afterwards, so the answer takes the same time
     * either way (issue 26 item 6). The per-account counter is keyed by the identifier as submitted (normalised), never
     * by a looked-up account, so an unknown one meets its 429 at the same count as a real one (issue 45 item 6).
     */
    async requestPasswordReset(rawCatalystId: string, address: string): Promise<void> {
      const catalystId = normalizeCatalystId(rawCatalystId).id;
      await deps.rateLimiter.hit(`reset:address:${address}`, deps.limits.resetPerAddress);
      await deps.rateLimiter.hit(`reset:account:${catalystId}`, deps.limits.resetPerAccount);
      deps.afterResponse.run('password reset mail', () => mailPasswordReset(catalystId));
    },

    async resetPassword(input: UserReset): Promise<void> {
      const catalystId = normalizeCatalystId(input.catalyst_id).id;
      const passwordHash = await deps.passwords.hash(input.password);
      await db.transaction(async (tx) => {
        const used = await repo.consumeToken(tx, hashToken(input.confirmation_token), 'password_reset');
        const account = used && (await repo.findAccountById(tx, used.userId));
        // A token for another account fails like an expired one, and the transaction keeps it unused.
        if (!used || !account || account.catalystId !== catalystId) throw badRequest(messages.resetInvalid);
        await repo.updateUser(tx, account.userId, { passwordHash, forceReset: false });
        await deps.refreshTokens.revokeAllForUser(tx, account.userId);
      });
    },

    /** The interface language the person chose (issue 31); their mails follow it. */
    async setLanguage(userId: number, language: Language): Promise<{ language: Language }> {
      await repo.updateUser(db, userId, { language });
      return { language };
    },

    async updatePassword(userId: number, input: UpdateUser, keepFamily: string | undefined, address: string): Promise<void> {
      const attempt = await passwordGuard.attempt(`user:${userId}`, address);
      const account = await repo.findAccountById(db, userId);
      const ticket = { suspect: !attempt.clean, source: address };
      if (!account || !(await deps.passwords.verify(account.passwordHash, input.old_password, ticket))) {
        await attempt.failed();
        throw badRequest(messages.oldPasswordWrong);
      }
      await attempt.succeeded();
      const passwordHash = await deps.passwords.hash(input.password);
      await db.transaction(async (tx) => {
        await repo.updateUser(tx, userId, { passwordHash, forceReset: false });
        await deps.refreshTokens.revokeAllForUser(tx, userId, keepFamily);
      });
    },

    /** ADMIN_CATALYST_IDS: applied at start (and at registration, above). */
    async applyAdminList(): Promise<number> {
      return repo.setRoleByCatalystIds(db, [...adminIds], UserRole.admin);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
