import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lifecycleMessages } from '@cr/contract/lifecycle';
import { isCatalystId, isClosedCatalystId } from '@cr/contract/plain';
import { normalizeCatalystId } from '@cr/contract/rules';
import * as records from '../src/db/config-records';
import type { Db } from '../src/db/client';
import { PERSONAL_COLUMNS } from '../src/db/personal-columns';
import { verifyAuditChain } from '../src/modules/system/audit.repository';
import { catalystIds, notificationOptOuts, outbox, reviews, reviewVersions, subscriptions, users } from '../src/db/schema/index';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestReviewer } from './world-fixtures';

interface ColumnInfo {
  table: string;
  column: string;
  type: string;
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows: T[] }).rows ?? [])) as T[];

/** The real database's columns (information_schema), the migrations' own table aside. */
async function schemaColumns(db: Db): Promise<ColumnInfo[]> {
  return rowsOf<ColumnInfo>(
    await db.execute(sql`select table_name as "table", column_name as "column", data_type as "type" from information_schema.columns
      where table_schema = current_schema() and table_name not like '%drizzle%' order by table_name, ordinal_position`),
  );
}

/** The tables whose rows are an account's, or name it. */
const ACCOUNT_TABLES = new Set(['users', 'catalyst_ids']);
const PERSONAL_NAME =
  /email|catalyst|contact|telegram|handle|password|reward|recipient|verification|due_diligence|username|proposer|phone|address|user_id|_ip$/;
const FREE_TEXT = new Set(['text', 'character varying', 'jsonb', 'json', 'ARRAY']);

/**
 * The columns that look personal and have no erasure rule in db/personal-columns.ts: every column of the account
 * tables, any column named like personal data, and the free text of any table that points at an account.
 */
function unregistered(columns: ColumnInfo[]): string[] {
  const pointsAtAccount = new Set(columns.filter((c) => /(^|_)user_id$/.test(c.column)).map((c) => c.table));
  const registered = new Set(PERSONAL_COLUMNS.map((entry) => `${entry.table}.${entry.column}`));
  return columns
    .filter((c) => ACCOUNT_TABLES.has(c.table) || PERSONAL_NAME.test(c.column) || (pointsAtAccount.has(c.table) && FREE_TEXT.has(c.type)))
    .map((c) => `${c.table}.${c.column}`)
    .filter((name) => !registered.has(name));
}

/** Issue 47 item 2: the person closes their account; their personal data is erased. */
describe.each(databaseKinds)('issue 47: closing an account on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let finished: TestEvent;
  let open: TestEvent;
  beforeAll(async () => {
    admin = await ctx.admin();
    finished = await ctx.newEvent({ config: { review_submission_enabled: true } });
    open = await ctx.newEvent({ config: { review_submission_enabled: true } });
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers, ...(payload ? { payload } : {}) });
  const close = (user: TestUser, password = user.password) => call('POST', 'users/me/close', user.auth, { password });

  describe('the registry of personal columns (db/personal-columns.ts)', () => {
    it('has an erasure rule for every column of the schema that looks personal', async () => {
      const columns = await schemaColumns(ctx.db);
      expect(columns.length).toBeGreaterThan(100);
      expect(unregistered(columns)).toEqual([]);
    });

    it('fails for a personal-looking column added without a rule (the check itself works)', async () => {
      const columns = await schemaColumns(ctx.db);
      const added = [
        ...columns,
        { table: 'users', column: 'nickname', type: 'text' },
        { table: 'events', column: 'organiser_email', type: 'text' },
        { table: 'outbox', column: 'reply_to', type: 'text' },
      ];
      expect(unregistered(added)).toEqual(['users.nickname', 'events.organiser_email', 'outbox.reply_to']);
    });

    it('names only columns that exist, each once, each with why', async () => {
      const real = new Set((await schemaColumns(ctx.db)).map((c) => `${c.table}.${c.column}`));
      const names = PERSONAL_COLUMNS.map((entry) => `${entry.table}.${entry.column}`);
      expect(names.filter((name) => !real.has(name))).toEqual([]);
      expect(new Set(names).size).toBe(names.length);
      expect(PERSONAL_COLUMNS.filter((entry) => entry.why.trim().length < 10)).toEqual([]);
    });
  });

  interface Person {
    user: TestReviewer;
    finishedReviewId: number;
    openReviewId: number;
    needles: string[];
  }

  /** A reviewer with reviews in a finished round and in one still in review, contact data, a token, preferences and mail. */
  const person = async (): Promise<Person> => {
    const user = await ctx.newReviewer(finished);
    await ctx.newReviewer(open, { user });
    const finishedReview = await ctx.newReview(user, await ctx.newProposal(finished));
    const openReview = await ctx.newReview(user, await ctx.newProposal(open));
    const unique = normalizeCatalystId(user.catalystId).id.split('/')[1]!;
    const contact = { publicContact: `contact-${unique}`, telegramHandlePrivate: `@tg-${unique}`, rewardAddress: `addr1${unique}` };
    await ctx.db.update(subscriptions).set(contact).where(eq(subscriptions.userId, user.id));
    await ctx.db
      .update(users)
      .set({ dueDiligenceRef: `dd-${unique}`, dueDiligenceUrl: `https://verify.example/${unique}` })
      .where(eq(users.id, user.id));
    await call('PUT', 'users/me/language/', user.auth, { language: 'ja' });
    const tokenName = `token-${unique}`;
    await call('POST', 'users/me/tokens/', user.auth, { new_api_token: { name: tokenName, scopes: ['read'], expires_in_days: 30 } });
    await ctx.db.insert(notificationOptOuts).values({ userId: user.id, kind: 'review_reminder' });
    await ctx.db.insert(outbox).values({ recipient: user.email, kind: 'review_reminder', userId: user.id, textBody: `Hello ${unique}` });
    // The round is finished once its review outcomes exist.
    await records.upsertConfig(ctx.db, 'allocations', finished.id, { review_outcomes_generated: true });
    const [account] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    return {
      user,
      finishedReviewId: finishedReview.row_id,
      openReviewId: openReview.row_id,
      needles: [
        user.email,
        normalizeCatalystId(user.catalystId).id,
        ...Object.values(contact),
        `dd-${unique}`,
        tokenName,
        account!.hash,
        unique,
      ],
    };
  };

  it('asks for the password, then ends the account: its sessions and tokens stop and it can no longer log in', async () => {
    const { user } = await person();
    const wrong = await close(user, 'Wrong-pass1');
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong)).toEqual({ message: lifecycleMessages.wrongPassword });
    expect((await call('GET', 'users/me/', user.auth)).statusCode).toBe(200);

    expect((await close(user)).statusCode).toBe(200);
    expect((await call('GET', 'users/me/', user.auth)).statusCode).toBe(401);
    expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(401);
  });

  it('leaves no personal field in any table: every text column of the database is searched for the person’s data', async () => {
    const { user, needles } = await person();
    const columns = (await schemaColumns(ctx.db)).filter((c) => FREE_TEXT.has(c.type));
    const holding = async () => {
      const found: string[] = [];
      for (const c of columns) {
        const conditions = sql.join(
          needles.map((needle) => sql`strpos(lower(${sql.identifier(c.column)}::text), lower(${needle})) > 0`),
          sql` or `,
        );
        const [row] = rowsOf<{ n: number }>(
          await ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(c.table)} where ${conditions}`),
        );
        if (Number(row!.n) > 0) found.push(`${c.table}.${c.column}`);
      }
      return found;
    };
    // The search finds the data while the account is open (it looks where the data is).
    expect(await holding()).toEqual(
      expect.arrayContaining(['catalyst_ids.email', 'catalyst_ids.catalyst_id', 'subscriptions.public_contact', 'outbox.recipient']),
    );
    expect((await close(user)).statusCode).toBe(200);
    expect(await holding()).toEqual([]);

    for (const table of ['refresh_tokens', 'one_time_tokens', 'api_tokens', 'idempotency_keys', 'notification_opt_outs']) {
      const [row] = rowsOf<{ n: number }>(
        await ctx.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${user.id}`),
      );
      expect([table, Number(row!.n)]).toEqual([table, 0]);
    }
    const [account] = await ctx.db
      .select({ email: catalystIds.email, language: users.language, closedAt: users.closedAt, ddUrl: users.dueDiligenceUrl })
      .from(users)
      .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
      .where(eq(users.id, user.id));
    expect(account).toEqual({ email: null, language: null, closedAt: expect.any(Date), ddUrl: null });
    const audit = json<{ data: Record<string, unknown>[] }>(await call('GET', 'admin/audit/?action=user.close', admin.auth));
    expect(audit.data.find((row) => row.entity_id === String(user.id))).toMatchObject({ entity: 'user', after: { closed: true } });
    // The audit hash chain (issue 48) still verifies: the entries whose words were erased keep their links and their
    // data's digest as written, and are counted as redacted.
    const chain = await verifyAuditChain(ctx.db);
    expect(chain).toMatchObject({ verified: true, broken: null });
    expect(chain.redacted).toBeGreaterThan(0);
  });

  it('frees the e-mail address and the Catalyst ID for a new registration', async () => {
    const { user } = await person();
    expect((await ctx.registerResponse({ catalyst_id: user.catalystId, email: user.email })).statusCode).toBe(409);
    expect((await close(user)).statusCode).toBe(200);
    const again = await ctx.registerResponse({ catalyst_id: user.catalystId, email: user.email.toUpperCase() });
    expect(again.statusCode).toBe(201);
    const fresh = await ctx.userIdOf(user.email);
    expect(fresh.id).not.toBe(user.id);
  });

  it('keeps the finished round’s reviews under the anonymous id with no path back; deletes the open round’s with their versions', async () => {
    const { user, finishedReviewId, openReviewId } = await person();
    expect((await close(user)).statusCode).toBe(200);

    const [kept] = await ctx.db
      .select({ anonymousId: subscriptions.anonymousId, userId: subscriptions.userId, contact: subscriptions.publicContact })
      .from(reviews)
      .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
      .where(eq(reviews.id, finishedReviewId));
    expect(kept).toEqual({ anonymousId: user.anonymousId, userId: user.id, contact: null });
    // The account the review leads to is the tombstone: no Catalyst ID of the person, no address.
    const info = json(await call('GET', `admin/users/${user.id}`, admin.auth));
    expect(info.catalyst_id.id).toBe(`closed:${user.id}`);
    // Never a real Catalyst ID, and the web app knows it for a closed account.
    expect(isCatalystId(info.catalyst_id.id)).toBe(false);
    expect(isClosedCatalystId(info.catalyst_id.id)).toBe(true);
    expect(isClosedCatalystId(user.catalystId)).toBe(false);
    expect(info.email).toBeNull();
    expect(info.extra.subscriptions.map((s: { event_id: number }) => s.event_id)).toEqual([finished.id]);
    expect(await ctx.db.select().from(reviewVersions).where(eq(reviewVersions.reviewId, finishedReviewId))).toHaveLength(1);

    expect(await ctx.db.select().from(reviews).where(eq(reviews.id, openReviewId))).toEqual([]);
    expect(await ctx.db.select().from(reviewVersions).where(eq(reviewVersions.reviewId, openReviewId))).toEqual([]);
  });

  it('keeps no body of a mail addressed to the person, and fails what was queued', async () => {
    const { user } = await person();
    expect((await close(user)).statusCode).toBe(200);
    const mails = await ctx.db.select().from(outbox).where(eq(outbox.recipient, 'erased'));
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.filter((m) => m.textBody || m.htmlBody || m.subject || m.link || m.params)).toEqual([]);
    expect(mails.filter((m) => m.status === 'queued' || m.status === 'sending')).toEqual([]);
  });

  it('is for the signed-in person only, and refuses the last admin', async () => {
    expect((await call('POST', 'users/me/close', {}, { password: 'Valid-pass1' })).statusCode).toBe(401);
    const token = json<{ token: string }>(
      await call('POST', 'users/me/tokens/', admin.auth, { new_api_token: { name: 'script', scopes: ['read'], expires_in_days: 30 } }),
    ).token;
    expect((await call('POST', 'users/me/close', { authorization: `Bearer ${token}` }, { password: admin.password })).statusCode).toBe(403);
    const admins = rowsOf<{ id: number }>(await ctx.db.execute(sql`select id from users where role = 100 and id <> ${admin.id}`));
    await ctx.db.execute(sql`update users set role = 0 where id in (${sql.join(admins.map((a) => sql`${a.id}`).concat(sql`0`), sql`, `)})`);
    const last = await close(admin);
    expect(last.statusCode).toBe(409);
    expect(json(last)).toEqual({ message: lifecycleMessages.lastAdmin });
  });
});
