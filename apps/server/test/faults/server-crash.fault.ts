import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  CHECKS,
  createDatabase,
  inTurn,
  login,
  query,
  SCALE_PASSWORD,
  seedRound,
  startCluster,
  startServer,
  until,
  type Cluster,
  type ServerProcess,
} from './harness';

const note = 'The proposal explains the problem well, the milestones are concrete and the budget is itemised by role. '.repeat(3);
const reviewBody = (proposalId: number, i: number) => ({
  new_proposal_review: {
    proposal_id: proposalId,
    impact_alignment_rating_given: 1 + (i % 5),
    impact_alignment_note: note,
    feasibility_rating_given: 1 + ((i + 1) % 5),
    feasibility_note: note,
    auditability_rating_given: 1 + ((i + 2) % 5),
    auditability_note: note,
  },
});

/** Waits until the dead server's connections are gone: PostgreSQL has rolled back whatever they had open. */
async function connectionsGone(url: string) {
  await until(
    "the killed server's connections to end",
    async () =>
      (
        await query<{ n: number }>(
          url,
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name <> '${CHECKS}'`,
        )
      )[0]!.n === 0,
  );
}

// Issue 18 item 4: kill -9 of the server during a 200-client review-submit load → restart → every acknowledged (201)
// review present, none duplicated.
describe('kill -9 of the server during review submissions', () => {
  let cluster: Cluster | string;
  let url: string;
  let server: ServerProcess | undefined;
  let round: Awaited<ReturnType<typeof seedRound>>;

  beforeAll(async () => {
    cluster = await startCluster();
    if (typeof cluster === 'string') return;
    url = await createDatabase(cluster, 'cr_fault_reviews');
    round = await seedRound(url, { proposals: 1_000, reviewers: 200 });
    server = await startServer({ DATABASE_URL: url });
  });
  afterAll(async () => {
    await server?.stop();
    if (typeof cluster !== 'string') cluster?.destroy();
  });

  it('keeps every acknowledged review and duplicates none', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const tokens = await inTurn(round.reviewers, 8, (reviewer) => login(server!.origin, reviewer.catalyst_id, SCALE_PASSWORD));
    const acknowledged: { subscription: number; proposal: number; rowId: number }[] = [];
    const unanswered: { client: number; proposal: number }[] = [];
    const refused: string[] = [];
    const perClient = Math.floor(round.proposals.length / 2);
    const origin = server!.origin;
    const load = Promise.all(
      tokens.map(async (token, client) => {
        for (let k = 0; k < perClient; k += 1) {
          const proposal = round.proposals[(client * 7 + k) % round.proposals.length]!;
          const answer = await api(origin, 'POST', '/proposal-reviews/', { token, body: reviewBody(proposal, client + k) });
          if (answer.status === 201) {
            acknowledged.push({ subscription: round.reviewers[client]!.subscription_id, proposal, rowId: answer.body.row_id });
          } else if (answer.status !== 0) {
            refused.push(`${answer.status} ${JSON.stringify(answer.body)}`);
            return;
          } else {
            // The server died with this request in flight (or refused it): its fate is unknown to the client.
            unanswered.push({ client, proposal });
            return;
          }
        }
      }),
    );
    await until('reviews acknowledged under load', async () => acknowledged.length >= 1_500 || refused.length > 0, 120_000);
    await server!.kill9();
    await load;
    expect(refused).toEqual([]);
    await connectionsGone(url);
    expect(acknowledged.length).toBeGreaterThanOrEqual(1_500);
    expect(unanswered.length).toBeGreaterThan(0);

    server = await startServer({ DATABASE_URL: url });
    // Every acknowledged review is there, as acknowledged.
    const stored = await query<{ id: number; subscription_id: number; proposal_id: number }>(
      url,
      'select id, subscription_id, proposal_id from reviews where event_id = $1',
      [round.eventId],
    );
    const byId = new Map(stored.map((row) => [row.id, row]));
    const missing = acknowledged.filter((item) => {
      const row = byId.get(item.rowId);
      return !row || row.subscription_id !== item.subscription || row.proposal_id !== item.proposal;
    });
    expect(missing).toEqual([]);
    // The clients retry what got no answer: each is stored once, by now or by the retry (201), or it was stored
    // before the crash and the retry says so (409), never twice.
    const retries = await Promise.all(
      unanswered.map(async ({ client, proposal }) => {
        const answer = await api(server!.origin, 'POST', '/proposal-reviews/', { token: tokens[client], body: reviewBody(proposal, 0) });
        return answer.status;
      }),
    );
    expect(retries.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    const [{ n: total }] = (await query<{ n: number }>(url, 'select count(*)::int as n from reviews where event_id = $1', [
      round.eventId,
    ])) as [{ n: number }];
    expect(total).toBe(acknowledged.length + unanswered.length);
    const duplicates = await query(url, 'select subscription_id, proposal_id from reviews group by 1, 2 having count(*) > 1');
    expect(duplicates).toEqual([]);
  });
});

// Issue 18 item 4: kill -9 during a real proposal allocation and during a real moderation allocation → no
// half-written run (the rows all old or all new, the run flag as before), and the run can be started again and
// completes.
describe('kill -9 of the server during a real admin run', () => {
  let cluster: Cluster | string;
  let url: string;
  let server: ServerProcess | undefined;
  let round: Awaited<ReturnType<typeof seedRound>>;
  let env: Record<string, string>;
  let watcher: pg.Client;

  beforeAll(async () => {
    cluster = await startCluster();
    if (typeof cluster === 'string') return;
    url = await createDatabase(cluster, 'cr_fault_runs');
    // Large enough that writing a run's rows takes a while: 5,000 reviewers × 2,000 proposals (~150,000 proposal
    // allocations) and 4 reviews each; 300 of the reviewers are LV2 moderators instead.
    round = await seedRound(url, { proposals: 2_000, reviewers: 5_000, reviews: 4 });
    await query(
      url,
      'update subscriptions set role = 2 where id in (select id from subscriptions where event_id = $1 order by id desc limit 300)',
      [round.eventId],
    );
    // The similarity flags count as computed (none flagged): the moderation run then selects spot checks only, and
    // does not spend minutes comparing the seed's look-alike notes.
    await query(url, `insert into configs (kind, event_id, value) values ('allocations', $1, $2)`, [
      round.eventId,
      JSON.stringify({ moderation_allocation_generated: false, proposal_allocation_generated: false, flags_computed: true }),
    ]);
    env = { DATABASE_URL: url, ADMIN_CATALYST_IDS: round.reviewers[0]!.catalyst_id };
    server = await startServer(env);
    watcher = new pg.Client({ connectionString: url, application_name: CHECKS });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher?.end();
    await server?.stop();
    if (typeof cluster !== 'string') cluster?.destroy();
  });

  /** Whether a connection other than the watcher's holds a write lock on `table`: the run is writing its rows. */
  const writing = (table: string) => async () =>
    (
      await watcher.query(
        `select count(*)::int as n from pg_locks l where l.relation = $1::regclass and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`,
        [table],
      )
    ).rows[0].n > 0;

  const state = async (table: string, flag: string) => {
    const [rows] = await query<{ n: number; digest: string | null }>(
      url,
      `select count(*)::int as n, md5(string_agg(t::text, ',' order by t::text)) as digest from ${table} t where event_id = $1`,
      [round.eventId],
    );
    const [config] = await query<{ value: Record<string, boolean> | null }>(
      url,
      `select value from configs where kind = 'allocations' and event_id = $1`,
      [round.eventId],
    );
    const [audit] = await query<{ n: number }>(url, `select count(*)::int as n from audit_log where action like '%allocate'`);
    return { rows: rows!.n, digest: rows!.digest, flag: config?.value?.[flag] === true, audits: audit!.n };
  };

  /** Starts a real run, kills the server while it writes, restarts it; answers the state before and after. */
  async function killMidRun(path: string, body: object, table: string, flag: string) {
    const before = await state(table, flag);
    const token = await login(server!.origin, round.reviewers[0]!.catalyst_id, SCALE_PASSWORD);
    let answered: number | undefined;
    const answer = api(server!.origin, 'POST', path, { token, body }).then((result) => (answered = result.status));
    await until(`the run writing ${table}`, async () => answered !== undefined || (await writing(table)()), 120_000, 5);
    expect(answered).toBeUndefined();
    await server!.kill9();
    expect(await answer).toBe(0);
    await connectionsGone(url);
    const after = await state(table, flag);
    server = await startServer(env);
    return { before, after, token: await login(server.origin, round.reviewers[0]!.catalyst_id, SCALE_PASSWORD) };
  }

  it('proposal allocation: a killed first run leaves nothing, a killed re-run leaves the previous rows; both complete when started again', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const params = (seed: number) => ({
      allocation_params: {
        event_id: round.eventId,
        allocation_seed: seed,
        nr_of_proposals_lv0: 30,
        nr_of_proposals_lv1: 60,
        categories: [],
        dry_run: false,
      },
    });
    const path = '/proposal-reviews/generate-allocations';
    const first = await killMidRun(path, params(1), 'proposal_allocations', 'proposal_allocation_generated');
    expect(first.after).toEqual(first.before);
    expect(first.after).toMatchObject({ rows: 0, flag: false });

    const completed = await api(server!.origin, 'POST', path, { token: first.token, body: params(1) });
    expect(completed.status).toBe(200);
    const done = await state('proposal_allocations', 'proposal_allocation_generated');
    expect(done).toMatchObject({ rows: completed.body.tot, flag: true, audits: first.before.audits + 1 });

    // A re-run (another seed: other rows) killed while it replaces them: the completed run's rows, all of them.
    const rerun = await killMidRun(path, params(2), 'proposal_allocations', 'proposal_allocation_generated');
    expect(rerun.after).toEqual(done);
    const again = await api(server!.origin, 'POST', path, { token: rerun.token, body: params(2) });
    expect(again.status).toBe(200);
    const replaced = await state('proposal_allocations', 'proposal_allocation_generated');
    expect(replaced).toMatchObject({ rows: again.body.tot, flag: true, audits: done.audits + 1 });
    expect(replaced.digest).not.toBe(done.digest);
  });

  it('moderation allocation: a killed run leaves no rows and no flag; started again it completes, once', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const body = {
      allocation_params: {
        event_id: round.eventId,
        moderation_seed: 1,
        nr_of_moderations_per_review: 3,
        min_spot_check_per_reviewer: 4,
        dry_run: false,
      },
    };
    const path = '/moderations/generate-allocations';
    const killed = await killMidRun(path, body, 'moderation_allocations', 'moderation_allocation_generated');
    expect(killed.after).toEqual(killed.before);
    expect(killed.after).toMatchObject({ rows: 0, flag: false });

    const completed = await api(server!.origin, 'POST', path, { token: killed.token, body });
    expect(completed.status).toBe(200);
    expect(await state('moderation_allocations', 'moderation_allocation_generated')).toMatchObject({
      rows: completed.body.tot,
      flag: true,
      audits: killed.before.audits + 1,
    });
    expect((await api(server!.origin, 'POST', path, { token: killed.token, body })).status).toBe(409);
  });
});
