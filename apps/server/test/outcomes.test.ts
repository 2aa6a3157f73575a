import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { auditLog, moderations, proposalScores, reviews as reviewsTable } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { VALID_NOTE, type TestEvent, type TestReviewer } from './world-fixtures';

/** A strict RFC 4180 reader (quoted cells, doubled quotes, CRLF records) to check what the exports write. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (quoted && char === '"') quoted = false;
    else if (quoted) cell += char;
    else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      records.push([...record, cell]);
      record = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
}

// Issue 15 items 1 and 2: the review outcomes and proposal scores runs (spec §3 "Outcome parameters", "Score
// parameters", §5, §7 `POST proposal-reviews/generate-results`, `POST proposals/generate-results`; DOMAIN.md
// "Review outcomes", "Proposal scores", "Reviews").

describe.each(databaseKinds)('review outcomes and proposal scores on %s', (kind) => {
  const ctx = useTestApp(kind);

  const post = (user: TestUser | undefined, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `${API}/${url}`, headers: user ? user.auth : {}, payload });
  const outcomeParams = (event: TestEvent, overrides: Record<string, unknown> = {}) => ({
    results_params: {
      event_id: event.id,
      validity_threshold: 0.5,
      acceptance_threshold: 0.5,
      minimum_sample: 10,
      dry_run: true,
      ...overrides,
    },
  });
  const scoreParams = (event: TestEvent, overrides: Record<string, unknown> = {}) => ({
    results_params: {
      event_id: event.id,
      allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
      level_weights: { level_0: 1, level_1: 1 },
      dry_run: true,
      ...overrides,
    },
  });

  /**
   * A closed round, hand-computed:
   * - A (LV0) wrote 10 reviews (proposals 0–9), each moderated once: 0–5 excluded, 6–9 included → approval 0.4.
   * - B (LV1) wrote 3: proposal 0 (5/4/3, allocated to B) moderated include + exclude (a 2–2-style tie), proposal 1
   *   moderated exclude + exclude, proposal 2 unmoderated.
   * - C (LV0) wrote 1: proposal 0 (2/2/2), unmoderated, not allocated.
   */
  async function round() {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(event);
    const a = await ctx.newReviewer(event);
    const b = await ctx.newReviewer(event, { level: ReviewerLevel.level_1 });
    const c = await ctx.newReviewer(event);
    const m1 = await ctx.newModerator(event);
    const m2 = await ctx.newModerator(event);
    await ctx.newAllocation(b, proposals[0]!);
    const moderate = (moderator: TestReviewer, reviewId: number, classification: 0 | 1) =>
      ctx.db
        .insert(moderations)
        .values({ eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id, classification, rationale: 'r' });
    const ofA = [];
    for (let i = 0; i < 10; i += 1) {
      const review = await ctx.newReview(a, proposals[i]!);
      ofA.push(review.row_id);
      await moderate(m1, review.row_id, i < 6 ? 0 : 1);
    }
    const b0 = await ctx.newReview(b, proposals[0]!, {
      impact_alignment_rating_given: 5,
      feasibility_rating_given: 4,
      auditability_rating_given: 3,
    });
    await moderate(m1, b0.row_id, 1);
    await moderate(m2, b0.row_id, 0);
    const b1 = await ctx.newReview(b, proposals[1]!);
    await moderate(m1, b1.row_id, 0);
    await moderate(m2, b1.row_id, 0);
    const b2 = await ctx.newReview(b, proposals[2]!);
    const c0 = await ctx.newReview(c, proposals[0]!, {
      impact_alignment_rating_given: 2,
      feasibility_rating_given: 2,
      auditability_rating_given: 2,
    });
    return { event, proposals, a, b, c, ofA, b0: b0.row_id, b1: b1.row_id, b2: b2.row_id, c0: c0.row_id };
  }

  const rankingsOf = async (eventId: number) =>
    new Map(
      (
        await ctx.db
          .select({ id: reviewsTable.id, ranking: reviewsTable.ranking })
          .from(reviewsTable)
          .where(eq(reviewsTable.eventId, eventId))
      ).map((row) => [row.id, row.ranking]),
    );

  it('G-005, G-006, G-008: a dry run answers the statistics and writes nothing; a real run writes every ranking, once', async () => {
    const world = await round();
    const { event } = world;
    const expected = {
      nr_of_reviewers: 3,
      nr_of_accepted_reviewers: 2,
      nr_of_excluded_reviewers: 1,
      nr_of_reviews: 14,
      nr_of_accepted_reviews: 3,
      nr_of_excluded_reviews: 11,
      nr_of_excluded_reviews_by_moderation: 1,
      nr_of_excluded_reviews_by_threshold: 10,
      excluded_reviewers: [{ assessor: world.a.anonymousId, moderated: 10, approval_rate: 0.4 }],
    };
    const dry = await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event));
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({ event_id: event.id, ...expected, dry_run: true });
    expect([...(await rankingsOf(event.id)).values()].every((ranking) => ranking === 0)).toBe(true);

    // Stricter thresholds in a dry run: at validity 1 the tie is excluded too.
    const strict = await post(
      event.admin,
      'proposal-reviews/generate-results',
      outcomeParams(event, { validity_threshold: 1, acceptance_threshold: 1 }),
    );
    expect(strict.json()).toMatchObject({ nr_of_excluded_reviews_by_moderation: 2, nr_of_accepted_reviews: 2 });

    const real = await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event, { dry_run: false }));
    expect(real.statusCode).toBe(200);
    expect(real.json()).toEqual({ event_id: event.id, ...expected, dry_run: false });
    const rankings = await rankingsOf(event.id);
    for (const id of world.ofA) expect(rankings.get(id)).toBe(3);
    expect([rankings.get(world.b0), rankings.get(world.b1), rankings.get(world.b2), rankings.get(world.c0)]).toEqual([1, 2, 1, 1]);
    // The event's allocation config shows the run flag (the web disables the form with it, G-007).
    const flags = await ctx.app.inject({ method: 'GET', url: `${API}/configs/allocations/${event.id}/`, headers: event.admin.auth });
    expect(flags.json().value).toMatchObject({ review_outcomes_generated: true });
    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'reviews.outcomes'));
    expect(audit.filter((entry) => entry.eventId === event.id)).toHaveLength(1);

    // G-008: never again, whatever the parameters; a dry run still answers.
    const again = await post(
      event.admin,
      'proposal-reviews/generate-results',
      outcomeParams(event, { dry_run: false, validity_threshold: 0 }),
    );
    expect(again.statusCode).toBe(409);
    expect((await rankingsOf(event.id)).get(world.b1)).toBe(2);
    expect((await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event))).statusCode).toBe(200);
  });

  it('lets exactly one of two concurrent real outcome runs win (409 for the other)', async () => {
    const { event } = await round();
    const body = outcomeParams(event, { dry_run: false });
    const answers = await Promise.all([
      post(event.admin, 'proposal-reviews/generate-results', body),
      post(event.admin, 'proposal-reviews/generate-results', body),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('makes an event’s reviews visible to everyone once its outcomes exist (DOMAIN.md "Reviews")', async () => {
    const world = await round();
    const read = () => ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/${world.b2}/` });
    expect((await read()).statusCode).toBe(404);
    await post(world.event.admin, 'proposal-reviews/generate-results', outcomeParams(world.event, { dry_run: false }));
    const after = await read();
    expect(after.statusCode).toBe(200);
    expect(after.json().ranking).toBe(1);
  });

  it('G-014, G-015, G-017: scores need the outcomes, weigh included reviews only, are stored and never regenerated', async () => {
    const world = await round();
    const { event, proposals } = world;
    const first = await post(event.admin, 'proposals/generate-results', scoreParams(event));
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toMatch(/review outcomes first/);

    await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event, { dry_run: false }));
    const dry = await post(event.admin, 'proposals/generate-results', scoreParams(event));
    expect(dry.statusCode).toBe(200);
    const rows = dry.json() as { proposal: { row_id: number; pr_id: string; title: string }; [key: string]: unknown }[];
    expect(rows).toHaveLength(proposals.length);
    const rowOf = (index: number) => rows.find((row) => row.proposal.row_id === proposals[index]!.id)!;
    // Proposal 0: B allocated (5/4/3) weighs 0.8, C not allocated (2/2/2) 0.2; A's review is excluded.
    expect(rowOf(0)).toEqual({
      proposal: { row_id: proposals[0]!.id, pr_id: proposals[0]!.pr_id, title: proposals[0]!.title },
      score_weighted_avg: { overall: 3.6, impact: 4.4, feasibility: 3.6, value_for_money: 2.8 },
      nr_reviews: 3,
      nr_allocated_reviews: 1,
      nr_included_reviews: 2,
      nr_excluded_reviews: 1,
      nr_excluded_by_moderation_reviews: 0,
      nr_excluded_by_threshold_reviews: 1,
    });
    // Proposal 1: no included review → no score.
    expect(rowOf(1)).toMatchObject({
      score_weighted_avg: null,
      nr_reviews: 2,
      nr_excluded_by_moderation_reviews: 1,
      nr_excluded_by_threshold_reviews: 1,
    });
    // Proposal 2: only B's unallocated review, which carries the whole weight (default ratings 4/3/5).
    expect(rowOf(2).score_weighted_avg).toEqual({ overall: 4, impact: 4, feasibility: 3, value_for_money: 5 });
    expect(await ctx.db.select().from(proposalScores).where(eq(proposalScores.eventId, event.id))).toEqual([]);

    // Level weights count: C (LV0) at half weight.
    const weighted = await post(
      event.admin,
      'proposals/generate-results',
      scoreParams(event, { level_weights: { level_0: 0.5, level_1: 1 } }),
    );
    const impact = (weighted.json() as typeof rows).find((row) => row.proposal.row_id === proposals[0]!.id)!.score_weighted_avg as {
      impact: number;
    };
    expect(impact.impact).toBe(Math.round(((0.8 * 5 + 0.1 * 2) / 0.9) * 10_000) / 10_000);

    const real = await post(event.admin, 'proposals/generate-results', scoreParams(event, { dry_run: false }));
    expect(real.statusCode).toBe(200);
    expect(real.json()).toEqual(rows);
    const stored = await ctx.db.select().from(proposalScores).where(eq(proposalScores.eventId, event.id));
    expect(stored).toHaveLength(proposals.length);
    expect(stored.find((row) => row.proposalId === proposals[0]!.id)).toMatchObject({ overall: 3.6, impact: 4.4, nrIncludedReviews: 2 });
    expect(stored.find((row) => row.proposalId === proposals[1]!.id)).toMatchObject({ overall: null, nrReviews: 2 });

    // The proposal page's score (G-001 data): the stored scores; none for a proposal without an included review.
    const proposalScore = async (index: number) =>
      (await ctx.app.inject({ method: 'GET', url: `${API}/proposals/${proposals[index]!.id}/` })).json().score;
    expect(await proposalScore(0)).toEqual({ overall: 3.6, impact: 4.4, feasibility: 3.6, value_for_money: 2.8 });
    expect(await proposalScore(1)).toBeNull();

    const again = await post(event.admin, 'proposals/generate-results', scoreParams(event, { dry_run: false }));
    expect(again.statusCode).toBe(409);
  });

  it('lets exactly one of two concurrent real score runs win (409 for the other)', async () => {
    const { event } = await round();
    await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event, { dry_run: false }));
    const body = scoreParams(event, { dry_run: false });
    const answers = await Promise.all([
      post(event.admin, 'proposals/generate-results', body),
      post(event.admin, 'proposals/generate-results', body),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });

  it('G-003, G-004, G-013: validates the parameters with the forms’ rules', async () => {
    const event = await ctx.newEvent();
    const detail = async (url: string, body: object) => {
      const response = await post(event.admin, url, body);
      expect(response.statusCode).toBe(422);
      return (response.json().detail as { loc: (string | number)[]; msg: string }[]).map((d) => [d.loc.slice(2).join('.'), d.msg]);
    };
    expect(
      await detail(
        'proposal-reviews/generate-results',
        outcomeParams(event, { validity_threshold: 1.1, acceptance_threshold: -0.1, minimum_sample: 9 }),
      ),
    ).toEqual([
      ['validity_threshold', 'Validity threshold must be between 0 and 1.'],
      ['acceptance_threshold', 'Acceptance threshold must be between 0 and 1.'],
      ['minimum_sample', 'Minimum sample must be at least 10.'],
    ]);
    // The thresholds are required; a minimum sample left out is the default, 10 (as in the reference API, issue 17).
    expect(await detail('proposal-reviews/generate-results', { results_params: { event_id: event.id } })).toEqual([
      ['validity_threshold', 'Validity threshold is required.'],
      ['acceptance_threshold', 'Acceptance threshold is required.'],
    ]);
    expect(
      await detail(
        'proposals/generate-results',
        scoreParams(event, { allocation_weights: { allocated: 2, not_allocated: 0.2 }, level_weights: { level_0: 1 } }),
      ),
    ).toEqual([
      // level_weights.level_1 left out is its default (issue 17); a wrong value is refused.
      ['allocation_weights.allocated', expect.stringMatching(/between 0 and 1/)],
    ]);
  });

  it('needs an admin: anonymous 401, a reviewer 403, an admin 200; an unknown event 404', async () => {
    const event = await ctx.newEvent();
    const reviewer = await ctx.newReviewer(event);
    for (const [url, body] of [
      ['proposal-reviews/generate-results', outcomeParams(event)],
      ['proposals/generate-results', scoreParams(event)],
    ] as const) {
      expect((await post(undefined, url, body)).statusCode).toBe(401);
      expect((await post(reviewer, url, body)).statusCode).toBe(403);
      const missing = { results_params: { ...body.results_params, event_id: 999_999 } };
      expect((await post(event.admin, url, missing)).statusCode).toBe(404);
    }
    expect((await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event))).statusCode).toBe(200);
    // An event without any review: nothing to rank, and nothing excluded.
    expect((await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event))).json()).toMatchObject({ nr_of_reviews: 0 });
  });

  it('G-025, G-026: exports the reviews as CSV (header, quoting of commas, quotes and newlines, formula cells neutralised), admins only, audited', async () => {
    const world = await round();
    const { event, proposals } = world;
    const tricky = `=HYPERLINK("http://evil.test"), then a "quoted" word,\nand a new line. ${VALID_NOTE}`;
    const d = await ctx.newReviewer(event);
    const review = await ctx.newReview(d, proposals[3]!, { feasibility_note: tricky });
    await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event, { dry_run: false }));

    const get = (user: TestUser | undefined, url: string) =>
      ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: user ? user.auth : {} });
    expect((await get(undefined, `proposal-reviews/export/csv/${event.id}/`)).statusCode).toBe(401);
    expect((await get(d, `proposal-reviews/export/csv/${event.id}/`)).statusCode).toBe(403);
    expect((await get(event.admin, 'proposal-reviews/export/csv/999999/')).statusCode).toBe(404);

    const light = await get(event.admin, `proposal-reviews/export/csv/${event.id}/`);
    expect(light.statusCode).toBe(200);
    expect(light.headers['content-type']).toMatch(/^text\/csv/);
    expect(light.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="reviews-event-${event.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const lightRows = parseCsv(light.body);
    expect(lightRows[0]).toEqual(['valid', 'row_id', 'user_id', 'moderations_tot', 'moderations_as_valid']);
    expect(lightRows).toHaveLength(1 + 15);
    expect(lightRows.find((row) => row[1] === String(world.b0))).toEqual(['true', String(world.b0), String(world.b.id), '2', '1']);
    expect(lightRows.find((row) => row[1] === String(world.b1))).toEqual(['false', String(world.b1), String(world.b.id), '2', '0']);

    const full = await get(event.admin, `proposal-reviews/export/full-csv/${event.id}`);
    expect(full.statusCode).toBe(200);
    const rows = parseCsv(full.body);
    const header = rows[0]!;
    expect(header).toContain('feasibility_note');
    const mine = rows.find((row) => row[1] === String(review.row_id))!;
    const cell = (name: string) => mine[header.indexOf(name)];
    // The formula cell starts with an apostrophe; the commas, quotes and newline survive the round trip.
    expect(cell('feasibility_note')).toBe(`'${tricky}`);
    expect(cell('assessor')).toBe(d.anonymousId);
    expect(cell('pr_id')).toBe(proposals[3]!.pr_id);
    expect(cell('ranking')).toBe('1');
    expect(full.body).toContain('"\'=HYPERLINK(""http://evil.test""), then a ""quoted"" word,\nand a new line.');

    const audit = await ctx.db.select().from(auditLog).where(eq(auditLog.eventId, event.id));
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['exports.reviews', 'exports.reviews-full']));
  });

  it('G-027, G-028: exports the moderations and the moderator stats as CSV, answers moderations/stats/, of one event or all, admins only', async () => {
    const world = await round();
    const { event } = world;
    const get = (user: TestUser | undefined, url: string) =>
      ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: user ? user.auth : {} });
    expect((await get(undefined, 'moderations/export/csv')).statusCode).toBe(401);
    expect((await get(world.a, 'moderations/moderator-stats/')).statusCode).toBe(403);

    const moderationsCsv = await get(event.admin, `moderations/export/csv?event_id=${event.id}`);
    expect(moderationsCsv.statusCode).toBe(200);
    expect(moderationsCsv.headers['content-disposition']).toMatch(new RegExp(`filename="moderations-event-${event.id}-`));
    const rows = parseCsv(moderationsCsv.body);
    expect(rows[0]).toEqual([
      'row_id',
      'event_id',
      'review_id',
      'user_id',
      'public_contact',
      'classification',
      'predefined_reason',
      'rationale',
    ]);
    expect(rows).toHaveLength(1 + 14);
    expect(rows.filter((row) => row[2] === String(world.b1)).map((row) => row[5])).toEqual(['0', '0']);

    const stats = parseCsv((await get(event.admin, `moderations/moderator-stats/?event_id=${event.id}`)).body);
    expect(stats[0]).toEqual(['user_id', 'reviews_moderated']);
    expect(
      stats
        .slice(1)
        .map((row) => Number(row[1]))
        .sort((a, b) => a - b),
    ).toEqual([2, 12]);
    // moderations/stats/: 14 moderations; reviews by their number of moderations (C's, B's third, none: 2 unmoderated).
    const progress = await get(event.admin, `moderations/stats/?event_id=${event.id}`);
    expect(progress.json()).toEqual({
      moderations: 14,
      allocations: 0,
      flagged_reviews: 0,
      reviews_moderated: { by_0: 2, by_1: 10, by_2: 2, by_3: 0, by_more: 0 },
    });
    expect((await get(world.a, 'moderations/stats/')).statusCode).toBe(403);
    // Without an event: every event's moderations.
    expect(parseCsv((await get(event.admin, 'moderations/export/csv')).body).length).toBeGreaterThanOrEqual(15);
  });

  it('G-020..G-024: the vote export answers the proposals with scores and included reviews as a JSON download, with the §5 defaults', async () => {
    const world = await round();
    const { event, proposals } = world;
    await post(event.admin, 'proposal-reviews/generate-results', outcomeParams(event, { dry_run: false }));
    await post(event.admin, 'proposals/generate-results', scoreParams(event, { dry_run: false }));
    const body = { export_config: { fund_id: 15, fund_name: 'Fund 15', events_id: [event.id] } };
    expect((await post(undefined, 'admin/vitss-export', body)).statusCode).toBe(401);
    expect((await post(world.a, 'admin/vitss-export', body)).statusCode).toBe(403);
    const invalid = await post(event.admin, 'admin/vitss-export', {
      export_config: { fund_id: -1, fund_name: '', events_id: [event.id], chain_vote_type: 'secret' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(
      invalid
        .json()
        .detail.map((d: { loc: string[] }) => d.loc.at(-1))
        .sort(),
    ).toEqual(['chain_vote_type', 'fund_id', 'fund_name']);

    const answer = await post(event.admin, 'admin/vitss-export', body);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="vitss-export-fund-15-\d{4}-\d{2}-\d{2}\.json"$/);
    const exported = answer.json();
    expect(exported).toMatchObject({
      fund_id: 15,
      fund_name: 'Fund 15',
      events_id: [event.id],
      threshold: 25,
      chain_vote_options: ['blank', 'yes', 'no'],
      chain_vote_type: 'private',
      themes: [],
    });
    expect(exported.proposals).toHaveLength(proposals.length);
    const first = exported.proposals.find((proposal: { row_id: number }) => proposal.row_id === proposals[0]!.id);
    expect(first.score).toEqual({ overall: 3.6, impact: 4.4, feasibility: 3.6, value_for_money: 2.8 });
    // Only the included reviews: B's and C's, not A's (excluded by threshold).
    expect(first.reviews.map((review: { row_id: number }) => review.row_id).sort()).toEqual([world.b0, world.c0].sort());
    expect(exported.proposals.find((proposal: { row_id: number }) => proposal.row_id === proposals[1]!.id)).toMatchObject({
      score: null,
      reviews: [],
    });
  });
});
