import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { refreshTokens } from '../../db/schema/index';
import { createHmac } from 'node:crypto';
import { hashToken, newFamilyId, newToken } from '../../lib/secrets';

export type RefreshOutcome =
  { kind: 'rotated'; userId: number; token: string; familyId: string } | { kind: 'reused' } | { kind: 'invalid' };

/**
 * Refresh tokens: stored hashed, rotated on every use. A family is one login; presenting an already rotated token
 * means it was stolen or replayed, so the whole family is revoked (DOMAIN.md) — except within a short grace window
 * after the rotation (two tabs or two requests refreshing with the same cookie at once), in which the rotated token
 * answers the same successor again, as long as that successor is still the family's current token. A login's first
 * token is random; each successor is derived from its predecessor with an HMAC, so it can be given out twice without
 * being stored in the clear.
 */
export function createRefreshTokens(db: Db, ttlDays: number, options: { secret: string; graceSeconds: number }) {
  const expiry = () => new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);
  const successorOf = (token: string) => createHmac('sha256', options.secret).update(`refresh-successor:${token}`).digest('base64url');

  async function insert(tx: DbOrTx, userId: number, familyId: string, token = newToken()) {
    await tx.insert(refreshTokens).values({ userId, familyId, tokenHash: hashToken(token), expiresAt: expiry() });
    return token;
  }

  async function revokeFamily(tx: DbOrTx, familyId: string) {
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  return {
    async start(userId: number): Promise<{ token: string; familyId: string }> {
      const familyId = newFamilyId();
      return { token: await insert(db, userId, familyId), familyId };
    },

    async rotate(token: string): Promise<RefreshOutcome> {
      return db.transaction(async (tx) => {
        // Row lock: two refreshes with one token can't both rotate it.
        const [row] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(token)))
          .for('update');
        if (!row) return { kind: 'invalid' } as const;
        if (row.revokedAt) return { kind: 'invalid' } as const;
        if (row.rotatedAt) {
          if (Date.now() - row.rotatedAt.getTime() < options.graceSeconds * 1000) {
            const successor = successorOf(token);
            const [next] = await tx
              .select()
              .from(refreshTokens)
              .where(eq(refreshTokens.tokenHash, hashToken(successor)))
              .for('update');
            if (next && !next.rotatedAt && !next.revokedAt && next.expiresAt.getTime() > Date.now()) {
              return { kind: 'rotated', userId: row.userId, familyId: row.familyId, token: successor } as const;
            }
          }
          await revokeFamily(tx, row.familyId);
          return { kind: 'reused' } as const;
        }
        if (row.expiresAt.getTime() <= Date.now()) return { kind: 'invalid' } as const;
        await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
        const successor = await insert(tx, row.userId, row.familyId, successorOf(token));
        return { kind: 'rotated', userId: row.userId, familyId: row.familyId, token: successor } as const;
      });
    },

    async familyOf(token: string): Promise<string | undefined> {
      const [row] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(token)));
      return row?.familyId;
    },

    async revokeByToken(token: string): Promise<void> {
      const familyId = await this.familyOf(token);
      if (familyId) await revokeFamily(db, familyId);
    },

    async revokeAllForUser(tx: DbOrTx, userId: number, exceptFamily?: string): Promise<void> {
      const conditions = [eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)];
      if (exceptFamily) conditions.push(ne(refreshTokens.familyId, exceptFamily));
      await tx
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(...conditions));
    },
  };
}
export type RefreshTokens = ReturnType<typeof createRefreshTokens>;
