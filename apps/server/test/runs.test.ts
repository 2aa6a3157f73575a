import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema/index';
import { AppError } from '../src/errors';
import { createEventsService } from '../src/modules/events/events.service';
import { createRunsService, readRunFlags, runMessages, type AdminRun, type RunParams } from '../src/modules/runs/runs.service';
import { databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';

interface TestParams extends RunParams {
  value: number;
}

/** A run that doubles a number and keeps what it wrote; `gate` holds a real run inside its transaction. */
function testRun(options: { once: boolean; flag?: string; gate?: { entered: () => void; wait: Promise<void> }; failWrite?: boolean }) {
  const written: number[] = [];
  const run: AdminRun<TestParams, number, number, { doubled: number; dry_run: boolean | undefined; detail: string }> = {
    action: 'test.run',
    flag: options.flag ?? 'test_run_generated',
    once: options.once,
    async load(_tx, params) {
      if (options.gate && !params.dry_run) {
        options.gate.entered();
        await options.gate.wait;
      }
      return params.value;
    },
    compute: (input, params) => ({ result: input * 2, stats: { doubled: input * 2, dry_run: params.dry_run, detail: 'not audited' } }),
    async write(_tx, result) {
      if (options.failWrite) throw new Error('write failed');
      written.push(result);
    },
    auditedStats: ({ detail: _detail, ...kept }) => kept,
  };
  return { run, written };
}

/** What a route would answer for a run: 200, or the status of the error it threw. */
const statusOf = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === 'fulfilled' ? 200 : outcome.reason instanceof AppError ? outcome.reason.statusCode : 500;

describe.each(databaseKinds)('admin runs (modules/runs) on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  const runs = () => createRunsService({ db: ctx.db, events: createEventsService(ctx.db) });
  const auditsOf = (eventId: number) => ctx.db.select().from(auditLog).where(eq(auditLog.eventId, eventId)).orderBy(desc(auditLog.id));
  const setUp = async () => {
    const admin = await ctx.newAdmin();
    return { admin, event: await f.newEvent(admin) };
  };

  it('a dry run answers the statistics and writes nothing: no result, no flag, no audit entry', async () => {
    const { admin, event } = await setUp();
    const { run, written } = testRun({ once: true });
    const stats = await runs().execute(admin.id, run, { event_id: event.row_id, value: 4, dry_run: true });
    expect(stats).toEqual({ doubled: 8, dry_run: true, detail: 'not audited' });
    expect(written).toEqual([]);
    expect((await readRunFlags(ctx.db, event.row_id)).value.test_run_generated).toBeUndefined();
    expect(await auditsOf(event.row_id)).toHaveLength(1); // the event's creation only
  });

  it('a real run writes, sets its flag and is audited with its parameters and statistics', async () => {
    const { admin, event } = await setUp();
    const { run, written } = testRun({ once: true });
    const params = { event_id: event.row_id, value: 5, dry_run: false };
    expect(await runs().execute(admin.id, run, params)).toEqual({ doubled: 10, dry_run: false, detail: 'not audited' });
    expect(written).toEqual([10]);
    const flags = (await readRunFlags(ctx.db, event.row_id)).value;
    expect(flags).toMatchObject({ test_run_generated: true, proposal_allocation_generated: false, moderation_allocation_generated: false });
    const [entry] = await auditsOf(event.row_id);
    expect(entry).toMatchObject({
      action: 'test.run',
      actorUserId: admin.id,
      entity: 'event',
      entityId: String(event.row_id),
      before: { proposal_allocation_generated: false, moderation_allocation_generated: false },
      after: { params, stats: { doubled: 10, dry_run: false } },
    });
  });

  it('refuses a repeated real run of an irreversible run (409) and audits it once; a dry run still answers', async () => {
    const { admin, event } = await setUp();
    const { run, written } = testRun({ once: true });
    await runs().execute(admin.id, run, { event_id: event.row_id, value: 1, dry_run: false });
    const again = await Promise.allSettled([runs().execute(admin.id, run, { event_id: event.row_id, value: 2, dry_run: false })]);
    expect(statusOf(again[0]!)).toBe(409);
    expect((again[0] as PromiseRejectedResult).reason.message).toBe(runMessages.alreadyGenerated);
    expect(written).toEqual([2]);
    expect((await auditsOf(event.row_id)).filter((entry) => entry.action === 'test.run')).toHaveLength(1);
    expect((await runs().execute(admin.id, run, { event_id: event.row_id, value: 3, dry_run: true })).doubled).toBe(6);
  });

  it('runs a replacing run (not `once`) again, one audit entry per real run', async () => {
    const { admin, event } = await setUp();
    const { run, written } = testRun({ once: false });
    await runs().execute(admin.id, run, { event_id: event.row_id, value: 1, dry_run: false });
    await runs().execute(admin.id, run, { event_id: event.row_id, value: 2, dry_run: false });
    expect(written).toEqual([2, 4]);
    expect((await auditsOf(event.row_id)).filter((entry) => entry.action === 'test.run')).toHaveLength(2);
  });

  it('two concurrent real runs of an irreversible run: one 200, one 409; written and audited once', async () => {
    const { admin, event } = await setUp();
    const { run, written } = testRun({ once: true });
    const params = { event_id: event.row_id, value: 7, dry_run: false };
    const outcomes = await Promise.allSettled([runs().execute(admin.id, run, params), runs().execute(admin.id, run, params)]);
    expect(outcomes.map(statusOf).sort()).toEqual([200, 409]);
    expect(written).toEqual([14]);
    expect((await auditsOf(event.row_id)).filter((entry) => entry.action === 'test.run')).toHaveLength(1);
  });

  // PGlite has one connection, so a second transaction waits for the first instead of meeting its lock.
  it.runIf(kind === 'postgres')('a real run while another holds the event answers 409 at once, even a replacing run', async () => {
    const { admin, event } = await setUp();
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const wait = new Promise<void>((resolve) => (release = resolve));
    const { run, written } = testRun({ once: false, gate: { entered, wait } });
    const first = runs().execute(admin.id, run, { event_id: event.row_id, value: 1, dry_run: false });
    await inside;
    const second = await Promise.allSettled([runs().execute(admin.id, run, { event_id: event.row_id, value: 2, dry_run: false })]);
    expect(statusOf(second[0]!)).toBe(409);
    expect((second[0] as PromiseRejectedResult).reason.message).toBe(runMessages.runInProgress);
    release();
    await first;
    expect(written).toEqual([2]);
  });

  it('a failing write leaves no flag and no audit entry', async () => {
    const { admin, event } = await setUp();
    const { run } = testRun({ once: true, failWrite: true });
    await expect(runs().execute(admin.id, run, { event_id: event.row_id, value: 1, dry_run: false })).rejects.toThrow('write failed');
    expect((await readRunFlags(ctx.db, event.row_id)).value.test_run_generated).toBeUndefined();
    expect((await auditsOf(event.row_id)).filter((entry) => entry.action === 'test.run')).toHaveLength(0);
  });

  it('answers 404 for an unknown event', async () => {
    const { admin } = await setUp();
    const outcome = await Promise.allSettled([runs().execute(admin.id, testRun({ once: true }).run, { event_id: 999_999, value: 1 })]);
    expect(statusOf(outcome[0]!)).toBe(404);
  });
});
