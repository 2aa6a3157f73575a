import { createHash, randomBytes } from 'node:crypto';
import {
  TOKEN_PREFIX,
  TOKENS_PER_USER_MAX,
  tokenMessages,
  type ApiTokenPublic,
  type CreatedApiToken,
  type NewApiToken,
  type TokenScope,
} from '@cr/contract/tokens';
import type { Db } from '../../db/client';
import { isAdmin } from '../../domain/rules';
import { AppError, conflict, forbidden, notFound } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import { recordAudit } from '../system/audit.service';
import * as repo from './tokens.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a token's last-used time is written at most (a write per request would double a read's cost). */
const LAST_USED_EVERY_MS = 60_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const toPublic = (row: repo.ApiTokenRow): ApiTokenPublic => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as TokenScope[],
  hint: row.hint,
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** What the auth plugin learns from a valid token. */
export interface TokenCaller {
  user: AuthUser;
  tokenId: number;
  scopes: readonly TokenScope[];
}

/**
 * Personal API tokens (issue 29 item 3): made, listed and revoked by their owner on the profile, audited; a token is
 * 256 random bits after the `crpat_` prefix, kept only as its SHA-256. Each request with one costs one indexed
 * statement (the owner's role and account status come with it, so a banned account's tokens stop at once), its
 * last-used time is written at most once a minute, and a fixed window per token limits its requests
 * (`API_TOKEN_RATE_PER_MINUTE`, per server instance).
 */
export function createTokensService(deps: { db: Db; ratePerMinute: number; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const lastWritten = new Map<number, number>();
  const windows = new Map<number, { startedAt: number; hits: number }>();

  function countRequest(tokenId: number) {
    const at = now();
    let window = windows.get(tokenId);
    if (!window || at - window.startedAt >= 60_000) {
      window = { startedAt: at, hits: 0 };
      windows.set(tokenId, window);
      if (windows.size > 10_000) for (const [id, old] of windows) if (at - old.startedAt >= 60_000) windows.delete(id);
    }
    window.hits += 1;
    if (window.hits > deps.ratePerMinute) {
      const retryAfter = Math.max(1, Math.ceil((window.startedAt + 60_000 - at) / 1000));
      throw new AppError(429, 'Too many requests with this API token. Please slow down.', { 'retry-after': String(retryAfter) });
    }
  }

  function noteUse(tokenId: number) {
    const at = now();
    if (at - (lastWritten.get(tokenId) ?? 0) < LAST_USED_EVERY_MS) return;
    lastWritten.set(tokenId, at);
    // Not awaited: the request does not wait for its bookkeeping, and a failed write only leaves the time older.
    repo.touchToken(db, tokenId).catch(() => lastWritten.delete(tokenId));
  }

  return {
    isToken: (bearer: string) => bearer.startsWith(TOKEN_PREFIX),

    /** The caller a token stands for, or null when it is unknown, expired, revoked or its owner is banned. */
    async authenticate(token: string, bannedStatus: number): Promise<TokenCaller | null> {
      const row = await repo.findLiveToken(db, hashOf(token));
      if (!row || row.status === bannedStatus) return null;
      countRequest(row.id);
      noteUse(row.id);
      return {
        user: { id: row.user_id, role: row.role, status: row.status, forceReset: row.force_reset },
        tokenId: row.id,
        scopes: row.scopes as TokenScope[],
      };
    },

    async list(user: AuthUser): Promise<ApiTokenPublic[]> {
      return (await repo.tokensOf(db, user.id)).reverse().map(toPublic);
    },

    async create(user: AuthUser, input: NewApiToken): Promise<CreatedApiToken> {
      if (input.scopes.includes('admin-read') && !isAdmin(user)) throw forbidden(tokenMessages.adminReadOnlyAdmins);
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db.transaction(async (tx) => {
        if ((await repo.liveCount(tx, user.id)) >= TOKENS_PER_USER_MAX) throw conflict(tokenMessages.tooMany);
        const created = await repo.insertToken(tx, {
          userId: user.id,
          name: input.name,
          scopes: input.scopes,
          tokenHash: hashOf(token),
          hint: token.slice(0, TOKEN_PREFIX.length + 4),
          expiresAt: new Date(now() + input.expires_in_days * DAY_MS),
        });
        await recordAudit(tx, {
          actorUserId: user.id,
          action: 'tokens.create',
          entity: 'api_token',
          entityId: String(created.id),
          eventId: null,
          before: null,
          after: { name: created.name, scopes: created.scopes, expires_at: created.expiresAt.toISOString() },
        });
        return created;
      });
      return { ...toPublic(row), token };
    },

    async revoke(user: AuthUser, id: number): Promise<ApiTokenPublic> {
      const before = await db.transaction(async (tx) => {
        const row = await repo.revokeToken(tx, user.id, id);
        if (!row) throw notFound(tokenMessages.notFound);
        if (!row.revokedAt) {
          await recordAudit(tx, {
            actorUserId: user.id,
            action: 'tokens.revoke',
            entity: 'api_token',
            entityId: String(id),
            eventId: null,
            before: { name: row.name, scopes: row.scopes },
            after: null,
          });
        }
        return row;
      });
      return toPublic({ ...before, revokedAt: before.revokedAt ?? new Date(now()) });
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
