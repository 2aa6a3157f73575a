import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { refreshTokens } from '../../db/schema/index';
import { hashToken, newFamilyId, newToken } from '../../lib/secrets';

export type RefreshOutcome =
  { kind: 'rotated'; userId: number; token: string; familyId: string } | { kind: 'reused' } | { kind: 'invalid' };

/**
 * Refresh tokens: random, stored hashed, rotated on every use. A family is one login; presenting an already
 * rotated token means it was stolen or replayed, so the whole family is revoked (DOMAIN.md).
 */
export function createRefreshTokens(db: Db, ttlDays: number) {
  const expiry = () => new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);

  async function insert(tx: DbOrTx, userId: number, familyId: string) {
    const token = newToken();
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
          await revokeFamily(tx, row.familyId);
          return { kind: 'reused' } as const;
        }
        if (row.expiresAt.getTime() <= Date.now()) return { kind: 'invalid' } as const;
        await tx.update(refreshTokens).set({ rotatedAt: new Date() }).where(eq(refreshTokens.id, row.id));
        return { kind: 'rotated', userId: row.userId, familyId: row.familyId, token: await insert(tx, row.userId, row.familyId) } as const;
      });
    },

    /** Whether a login is still on: its family has a token that is not revoked (one look-up on the family index). */
    async familyActive(familyId: string): Promise<boolean> {
      const rows = await db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
        .limit(1);
      return rows.length > 0;
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
