import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChainStatus } from '@cr/contract/open-data';
import { runCli } from '../src/cli-commands';
import { openPostgres, type Database, type DbOrTx } from '../src/db/client';
import { auditLog } from '../src/db/schema/index';
import { canonicalJson, entryHash, headerJson } from '../src/modules/system/audit-chain';
import { insertAuditEntry, verifyAuditChain } from '../src/modules/system/audit.repository';
import { databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';

// Issue 48 item 3: the audit log's hash chain. Editing, deleting or reordering any row makes `audit verify` fail at
// that row; appends from two instances at once keep one chain.

/** Tampers inside a transaction that is rolled back, answering what the verification said meanwhile. */
async function tampered(db: Database['db'], tamper: (tx: DbOrTx) => Promise<unknown>) {
  let report: Awaited<ReturnType<typeof verifyAuditChain>> | undefined;
  await db
    .transaction(async (tx) => {
      await tamper(tx);
      report = await verifyAuditChain(tx);
      throw new Error('rollback');
    })
    .catch((error: Error) => {
      if (error.message !== 'rollback') throw error;
    });
  return report!;
}

describe.each(databaseKinds)('the audit hash chain on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let ids: number[];
  let eventId: number;

  beforeAll(async () => {
    admin = await ctx.newAdmin();
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    eventId = event.id;
    for (let i = 0; i < 4; i += 1)
      await insertAuditEntry(ctx.database.db, {
        actorUserId: admin.id,
        action: 'test.chain',
        entity: 'event',
        entityId: String(eventId),
        eventId: i % 2 === 0 ? eventId : null,
        before: { i, nested: { b: 2, a: [1, 'two', null] } },
        after: { i: i + 1, when: new Date(Date.UTC(2026, 0, 1)), ratio: 0.1 + 0.2 },
      });
    ids = (await ctx.database.db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id))).map((row) => row.id);
  });

  it('chains every entry: each names the previous entry of the log and of its event, and the head is the last', async () => {
    const rows = await ctx.database.db.select().from(auditLog).orderBy(asc(auditLog.id));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const [i, row] of rows.entries()) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.prevHash).toBe(i === 0 ? null : rows[i - 1]!.hash);
      expect(entryHash({ ...row, dataSha256: row.dataSha256! })).toBe(row.hash);
      if (row.eventId !== null) {
        const previous = rows
          .slice(0, i)
          .filter((other) => other.eventId === row.eventId)
          .at(-1);
        expect(row.eventPrevHash).toBe(previous?.hash ?? null);
      }
    }
    const report = await verifyAuditChain(ctx.database.db);
    expect(report).toMatchObject({ verified: true, entries: rows.length, legacy: 0, broken: null });
    expect(report.head).toEqual({ id: rows.at(-1)!.id, hash: rows.at(-1)!.hash });
  });

  it('canonical JSON sorts keys and drops undefined members, whatever the order they were written in', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"e":2,"f":1}]},"b":1}');
    // The header, written out for speed, is the canonical JSON of its fields.
    const header = {
      id: 7,
      createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      actorUserId: null,
      action: 'a "quoted" action',
      entity: 'event',
      entityId: '3',
      eventId: 3,
      dataSha256: 'd'.repeat(64),
      prevHash: null,
      eventPrevHash: 'e'.repeat(64),
    };
    expect(headerJson(header)).toBe(
      canonicalJson({
        v: 1,
        id: 7,
        created_at: '2026-01-02T03:04:05.006Z',
        actor_user_id: null,
        action: header.action,
        entity: 'event',
        entity_id: '3',
        event_id: 3,
        data_sha256: header.dataSha256,
        prev_hash: null,
        event_prev_hash: header.eventPrevHash,
      }),
    );
  });

  it.each([0, 1, 2, 3])('editing entry %i (its after, its action or its time) fails at that entry', async (index) => {
    const id = ids[index + 1]!;
    for (const set of [
      sql`after = '{"i": 99}'::jsonb`,
      sql`action = 'test.renamed'`,
      sql`created_at = created_at + interval '1 second'`,
      sql`actor_user_id = null`,
    ]) {
      const report = await tampered(ctx.database.db, (tx) => tx.execute(sql`update audit_log set ${set} where id = ${id}`));
      expect(report.verified).toBe(false);
      expect(report.broken!.entryId).toBe(id);
    }
  });

  it('deleting an entry fails at the entry after it (naming the gap), and deleting the last fails at the head', async () => {
    const middle = await tampered(ctx.database.db, (tx) => tx.delete(auditLog).where(eq(auditLog.id, ids[2]!)));
    expect(middle.broken).toEqual({ entryId: ids[3], reason: expect.stringContaining(`the entry before it (${ids[1]})`) });
    const first = await tampered(ctx.database.db, (tx) => tx.delete(auditLog).where(eq(auditLog.id, ids[0]!)));
    expect(first.broken!.entryId).toBe(ids[1]);
    const last = await tampered(ctx.database.db, (tx) => tx.delete(auditLog).where(eq(auditLog.id, ids.at(-1)!)));
    expect(last.broken!.entryId).toBe(ids.at(-1));
    expect(last.broken!.reason).toMatch(/head names entry/);
  });

  it('reordering two entries (swapping their ids) fails at the first of them', async () => {
    const [a, b] = [ids[1]!, ids[3]!];
    const report = await tampered(ctx.database.db, async (tx) => {
      await tx.execute(sql`update audit_log set id = -1 where id = ${a}`);
      await tx.execute(sql`update audit_log set id = ${a} where id = ${b}`);
      await tx.execute(sql`update audit_log set id = ${b} where id = -1`);
    });
    expect(report.broken!.entryId).toBe(a);
  });

  it('an entry whose words were erased as an account closed (marked redacted) links and verifies, counted; unmarked it fails', async () => {
    const id = ids[1]!;
    const erased = await tampered(ctx.database.db, (tx) =>
      tx.execute(sql`update audit_log set after = '{"i": 2}'::jsonb, redacted_at = now() where id = ${id}`),
    );
    expect(erased).toMatchObject({ verified: true, broken: null, redacted: 1 });
    const unmarked = await tampered(ctx.database.db, (tx) =>
      tx.execute(sql`update audit_log set after = '{"i": 2}'::jsonb where id = ${id}`),
    );
    expect(unmarked.broken!.entryId).toBe(id);
    // The mark does not cover a change of the header: a redacted entry's action edited still fails.
    const header = await tampered(ctx.database.db, (tx) =>
      tx.execute(sql`update audit_log set action = 'test.renamed', redacted_at = now() where id = ${id}`),
    );
    expect(header.broken!.entryId).toBe(id);
  });

  it('removing a hash, or rewriting an entry with a fresh hash of its own, still fails at that entry', async () => {
    const id = ids[2]!;
    const removed = await tampered(ctx.database.db, (tx) => tx.execute(sql`update audit_log set hash = null where id = ${id}`));
    expect(removed.broken!.entryId).toBe(id);
    // An operator recomputes the edited entry's hashes: the next entry still names the old one.
    const rewritten = await tampered(ctx.database.db, async (tx) => {
      const [row] = await tx.select().from(auditLog).where(eq(auditLog.id, id));
      const { dataDigest } = await import('../src/modules/system/audit-chain');
      const dataSha256 = dataDigest(row!.before, { edited: true });
      const hash = entryHash({ ...row!, dataSha256 });
      await tx
        .update(auditLog)
        .set({ after: { edited: true }, dataSha256, hash })
        .where(eq(auditLog.id, id));
    });
    expect(rewritten.broken!.entryId).toBe(ids[3]);
  });

  it('`audit verify` prints the head, and names the first broken link with exit code 1', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const deps = (database: Database) => ({
      open: async () => ({ database: { ...database, close: async () => {} }, adminCatalystIds: [] }),
      out: (line: string) => out.push(line),
      err: (line: string) => err.push(line),
    });
    const report = await verifyAuditChain(ctx.database.db);
    expect(await runCli(['audit', 'verify'], deps(ctx.database))).toBe(0);
    expect(out.at(-1)).toContain(`head ${report.head!.hash} (entry ${report.head!.id})`);
    expect(await runCli(['audit', 'verify', `--head=${report.head!.hash}`], deps(ctx.database))).toBe(0);
    expect(await runCli(['audit', 'verify', `--head=${'0'.repeat(64)}`], deps(ctx.database))).toBe(1);
    expect(err.at(-1)).toContain('is not in it');
    expect(await runCli(['audit', 'head', `--event=${eventId}`], deps(ctx.database))).toBe(0);
    expect(await runCli(['audit', 'verify', '--bogus'], deps(ctx.database))).toBe(2);

    await ctx.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update audit_log set after = '{"i": 42}'::jsonb where id = ${ids[2]!}`);
        const code = await runCli(
          ['audit', 'verify'],
          deps({ ...ctx.database, db: tx as unknown as Database['db'], migrate: async () => ({ applied: [], alreadyApplied: 0 }) }),
        );
        expect(code).toBe(1);
        expect(err.at(-1)).toBe(
          `The audit chain is broken at entry ${ids[2]}: entry ${ids[2]}: its before or after does not match its data hash: it was edited.`,
        );
        throw new Error('rollback');
      })
      .catch((error: Error) => {
        if (error.message !== 'rollback') throw error;
      });
  });

  it('GET admin/audit/chain/ answers the head and that the chain verifies, to admins only', async () => {
    const user = await ctx.newUser();
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/reviews/admin/audit/chain/', headers: admin.auth });
    expect(answer.statusCode).toBe(200);
    const status = answer.json() as AuditChainStatus;
    const report = await verifyAuditChain(ctx.database.db);
    expect(status).toMatchObject({ verified: true, broken: null, head: { entry_id: report.head!.id, hash: report.head!.hash } });
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reviews/admin/audit/chain/', headers: user.auth })).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reviews/admin/audit/chain/' })).statusCode).toBe(401);
  });
});

// Two app instances (two pools) append at once: one chain, no fork.
describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent appends from two instances', () => {
  const ctx = useTestApp('postgres');
  let other: Database;
  beforeAll(async () => {
    const result = await ctx.database.db.execute(sql`select current_database() as name`);
    const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    other = await openPostgres(url.toString());
  });
  afterAll(() => other?.close());

  it('keeps one chain when both append 40 entries each, all at once, half of them to one event', async () => {
    const event = await ctx.newEvent();
    const append = (db: Database['db'], i: number) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_sleep(0.002)`);
        return insertAuditEntry(tx, {
          actorUserId: null,
          action: 'test.concurrent',
          entity: 'event',
          entityId: String(i),
          eventId: i % 2 === 0 ? event.id : null,
          before: null,
          after: { i },
        });
      });
    const before = (await verifyAuditChain(ctx.database.db)).entries;
    await Promise.all(Array.from({ length: 80 }, (_, i) => append(i % 2 === 0 ? ctx.database.db : other.db, i)));
    const report = await verifyAuditChain(other.db);
    expect(report).toMatchObject({ verified: true, entries: before + 80, broken: null });
  });
});
