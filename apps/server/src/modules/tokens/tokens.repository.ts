import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { namedRows } from '../../db/named-statements';
import { apiTokens } from '../../db/schema/index';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

export async function insertToken(
  tx: DbOrTx,
  values: { userId: number; name: string; scopes: string[]; tokenHash: string; hint: string; expiresAt: Date },
) {
  const [row] = await tx.insert(apiTokens).values(values).returning();
  return row!;
}

/** The user's tokens, newest first (revoked and expired ones too: the list says so). */
export function tokensOf(db: DbOrTx, userId: number) {
  return db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(asc(apiTokens.id));
}

/** How many live (unrevoked, unexpired) tokens the user holds. */
export async function liveCount(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, sql`now()`)));
  return row?.n ?? 0;
}

/** Revokes the user's token; answers it as it was before, or undefined when the user has no such token. */
export async function revokeToken(tx: DbOrTx, userId: number, id: number) {
  const [before] = await tx
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
    .for('update');
  if (!before) return undefined;
  if (!before.revokedAt) await tx.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, id));
  return before;
}

/**
 * A live token by the hash of its secret, with its owner as the auth plugin needs them (one indexed statement, named
 * so PostgreSQL keeps its plan): null when unknown, revoked or expired.
 */
export async function findLiveToken(db: DbOrTx, tokenHash: string) {
  const [row] = await namedRows<{
    id: number;
    scopes: string[];
    user_id: number;
    role: number;
    force_reset: boolean;
    status: number;
  }>(
    db,
    'api_token_by_hash',
    sql`select t.id, t.scopes, u.id as user_id, u.role, u.force_reset, c.status
        from api_tokens t join users u on u.id = t.user_id join catalyst_ids c on c.id = u.catalyst_id_ref
        where t.token_hash = ${tokenHash} and t.revoked_at is null and t.expires_at > now()`,
  );
  return row ?? null;
}

export async function touchToken(db: DbOrTx, id: number) {
  await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, id));
}
