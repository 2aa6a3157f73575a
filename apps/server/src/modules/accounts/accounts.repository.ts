import type { Language } from '@cr/contract/languages';
import { and, eq, exists, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import type { CachedTotal } from '../../lib/count-cache';
import { catalystIds, oneTimeTokens, refreshTokens, users, type TokenPurpose } from '../../db/schema/index';

const accountColumns = {
  userId: users.id,
  passwordHash: users.passwordHash,
  role: users.role,
  forceReset: users.forceReset,
  registeredAt: users.registeredAt,
  catalystIdRef: catalystIds.id,
  catalystId: catalystIds.catalystId,
  email: catalystIds.email,
  emailVerifiedAt: catalystIds.emailVerifiedAt,
  username: catalystIds.username,
  status: catalystIds.status,
  rbacRegStatus: catalystIds.rbacRegStatus,
  rbacCheckedAt: catalystIds.rbacCheckedAt,
  dueDiligenceStatus: users.dueDiligenceStatus,
  dueDiligenceUrl: users.dueDiligenceUrl,
  language: users.language,
  bannedReason: users.bannedReason,
};
export type AccountRow = {
  userId: number;
  passwordHash: string;
  role: number;
  forceReset: boolean;
  registeredAt: Date;
  catalystIdRef: number;
  catalystId: string;
  email: string | null;
  emailVerifiedAt: Date | null;
  username: string | null;
  status: number;
  rbacRegStatus: number;
  rbacCheckedAt: Date | null;
  dueDiligenceStatus: number;
  language: Language | null;
  dueDiligenceUrl: string | null;
  /** Issue 47: shown to the person when they try to log in. */
  bannedReason: string | null;
};

const accounts = (db: DbOrTx) => db.select(accountColumns).from(users).innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id));

/**
 * The auth check of every signed-in request in one named statement: the caller's role, status and reset flag, found
 * only while the session (refresh family) the access token names is still on — logout and revocation end it at once.
 */
export function prepareSessionAccount(db: Db) {
  const sessionOn = db
    .select({ one: sql`1` })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, sql.placeholder('sessionId')),
        // The session must be the token subject's own (issue 26 item 7): a token naming another user's live session
        // is refused, even when it carries the server's signature.
        eq(refreshTokens.userId, users.id),
        isNull(refreshTokens.revokedAt),
      ),
    );
  const query = db
    .select({ id: users.id, role: users.role, status: catalystIds.status, forceReset: users.forceReset })
    .from(users)
    .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
    .where(and(eq(users.id, sql.placeholder('userId')), exists(sessionOn)))
    .limit(1)
    .prepare('auth_session_account');
  return async (userId: number, sessionId: string) => (await query.execute({ userId, sessionId }))[0];
}

export async function findAccountByCatalystId(db: DbOrTx, catalystId: string): Promise<AccountRow | undefined> {
  const rows = await accounts(db).where(eq(catalystIds.catalystId, catalystId)).limit(1);
  return rows[0];
}

export async function findAccountById(db: DbOrTx, userId: number): Promise<AccountRow | undefined> {
  const rows = await accounts(db).where(eq(users.id, userId)).limit(1);
  return rows[0];
}

export async function isCatalystIdTaken(db: DbOrTx, catalystId: string): Promise<boolean> {
  const rows = await db.select({ id: catalystIds.id }).from(catalystIds).where(eq(catalystIds.catalystId, catalystId)).limit(1);
  return rows.length > 0;
}

export async function isEmailTaken(db: DbOrTx, email: string, exceptCatalystIdRef?: number): Promise<boolean> {
  const rows = await db
    .select({ id: catalystIds.id })
    .from(catalystIds)
    .where(sql`lower(${catalystIds.email}) = lower(${email})`)
    .limit(1);
  return rows.length > 0 && rows[0]!.id !== exceptCatalystIdRef;
}

export async function insertAccount(
  tx: DbOrTx,
  values: { catalystId: string; email: string; passwordHash: string; role: number; rbacRegStatus: number },
): Promise<number> {
  const [catalyst] = await tx
    .insert(catalystIds)
    .values({ catalystId: values.catalystId, email: values.email, rbacRegStatus: values.rbacRegStatus, rbacCheckedAt: new Date() })
    .returning({ id: catalystIds.id });
  const [user] = await tx
    .insert(users)
    .values({
      catalystIdRef: catalyst!.id,
      passwordHash: values.passwordHash,
      role: values.role,
      policyAcknowledgments: { privacy_policy: true, terms_and_conditions: true },
    })
    .returning({ id: users.id });
  return user!.id;
}

export async function updateCatalystId(
  tx: DbOrTx,
  catalystIdRef: number,
  values: Partial<{ status: number; email: string; emailVerifiedAt: Date; rbacRegStatus: number; rbacCheckedAt: Date }>,
) {
  await tx.update(catalystIds).set(values).where(eq(catalystIds.id, catalystIdRef));
}

export async function updateUser(
  tx: DbOrTx,
  userId: number,
  values: Partial<{ passwordHash: string; forceReset: boolean; role: number; language: Language }>,
) {
  await tx.update(users).set(values).where(eq(users.id, userId));
}

export async function setRoleByCatalystIds(tx: DbOrTx, ids: string[], role: number): Promise<number> {
  if (ids.length === 0) return 0;
  const refs = await tx
    .select({ id: catalystIds.id })
    .from(catalystIds)
    .where(sql`${catalystIds.catalystId} in ${ids}`);
  if (refs.length === 0) return 0;
  const updated = await tx
    .update(users)
    .set({ role })
    .where(sql`${users.catalystIdRef} in ${refs.map((r) => r.id)}`)
    .returning({ id: users.id });
  return updated.length;
}

export async function insertToken(
  tx: DbOrTx,
  values: { userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date; payload?: Record<string, string> },
) {
  await tx.insert(oneTimeTokens).values(values);
}

/** Marks a valid token used and returns it, in one statement: a token works once even under concurrent requests. */
export async function consumeToken(tx: DbOrTx, tokenHash: string, purpose: TokenPurpose) {
  const rows = await tx
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, tokenHash),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return rows[0];
}

/** Earlier unused links of the same purpose stop working when a new one is sent. */
export async function expireTokens(tx: DbOrTx, userId: number, purpose: TokenPurpose) {
  await tx
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}

/**
 * The admin's user list, newest first, optionally filtered by part of a Catalyst ID, username or e-mail. Every user
 * has its Catalyst ID (a required reference): without a search the users alone are counted, from their primary key.
 * Totals go through `cachedTotal` (all 50,000 users count in 4 ms, a search matching most of them in 50 ms).
 */
export async function listAccounts(
  db: DbOrTx,
  options: { size: number; page: number; search?: string | undefined },
  cachedTotal: CachedTotal = (_key, load) => load(),
) {
  // Catalyst IDs are stored without their scheme, while the list shows it: a search for the shown text drops it too.
  const term = options.search?.trim().replace(/^id\.catalyst:\/\//i, '');
  const pattern = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const where = pattern
    ? sql`(${catalystIds.catalystId} ilike ${pattern} or ${catalystIds.username} ilike ${pattern} or ${catalystIds.email} ilike ${pattern})`
    : undefined;
  const countAll = async () => (await db.select({ total: sql<number>`count(*)::int` }).from(users))[0]?.total ?? 0;
  const countMatches = async () =>
    (
      await db
        .select({ total: sql<number>`count(*)::int` })
        .from(users)
        .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
        .where(where)
    )[0]?.total ?? 0;
  const [rows, total] = await Promise.all([
    accounts(db)
      .where(where)
      .orderBy(sql`${users.id} desc`)
      .limit(options.size)
      .offset(options.size * options.page),
    pattern ? cachedTotal(`search:${pattern.toLowerCase()}`, countMatches) : cachedTotal('all', countAll),
  ]);
  return { rows, total };
}
