import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paged } from '@cr/contract/common';
import { FlagType } from '@cr/contract/flags';
import { reviewPublic, type ReviewPublic } from '@cr/contract/reviews';
import { canReview, deriveStage, isModerator, switchActive } from '@cr/contract/plain';
import type { UserInfo } from '@cr/contract/users';
import { DEMO_EVENT, DEMO_MODERATION_EVENT, DEMO_PASSWORD, seedDemo } from '../src/demo';
import { API, databaseKinds, json, useTestApp } from './build-test-app';

/** Issue 14 item 7: the demo data holds a round in its moderation stage, flagged, with the demo moderator allocated. */
describe.each(databaseKinds)('the demo moderation round on %s', (kind) => {
  const ctx = useTestApp(kind);

  const loginAs = async (catalystId: string) => {
    const response = await ctx.login(catalystId, DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    return { authorization: `Bearer ${json(response).access_token}` };
  };
  const eventNamed = async (name: string) => {
    const events = json(await ctx.app.inject({ method: 'GET', url: `${API}/events/?size=100` }));
    return ((events.data ?? events) as { row_id: number; name: string }[]).find((event) => event.name === name);
  };

  it('has flags of each computed kind, moderation open and the demo moderator with allocations; seeding again adds nothing', async () => {
    await seedDemo(ctx.db);
    await seedDemo(ctx.db); // idempotent
    const event = await eventNamed(DEMO_MODERATION_EVENT.name);
    expect(event).toBeDefined();
    expect(await eventNamed(DEMO_EVENT.name)).toBeDefined();

    const config = json(await ctx.app.inject({ method: 'GET', url: `${API}/configs/reviews/${event!.row_id}/` }));
    expect(config.value).toMatchObject({ moderation_submission_enabled: true, review_submission_enabled: false });
    const admin = await loginAs('cardano/demo-admin');
    const allocationConfig = await ctx.app.inject({ method: 'GET', url: `${API}/configs/allocations/${event!.row_id}/`, headers: admin });
    expect(json(allocationConfig).value.moderation_allocation_generated).toBe(true);

    const moderator = await loginAs('cardano/demo-moderator');
    const allocated = await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/allocated/?size=100`, headers: moderator });
    expect(allocated.statusCode).toBe(200);
    const reviews = json(allocated).data as { row_id: number; flags: { flag_type: number }[]; allocated_for_moderation: boolean }[];
    expect(reviews.length).toBeGreaterThan(0);
    expect(json(allocated).page.total).toBe(reviews.length);
    expect(reviews.every((review) => review.allocated_for_moderation)).toBe(true);
    const types = new Set(reviews.flatMap((review) => review.flags.map((flag) => flag.flag_type)));
    expect(types).toContain(FlagType.similarity);
    expect(types).toContain(FlagType.profanity);
    // Every flagged review of the round is allocated, and spot checks come on top.
    expect(reviews.some((review) => review.flags.length === 0)).toBe(true);

    // The moderator moderates there.
    const moderated = await ctx.app.inject({
      method: 'POST',
      url: `${API}/moderations/`,
      headers: moderator,
      payload: { new_moderation: { review_id: reviews[0]!.row_id, classification: 1, rationale: 'valid', predefined_reason: 'valid' } },
    });
    expect(moderated.statusCode, moderated.body).toBe(201);

    // Seeding twice allocated once: the allocation run is exactly once (409 on another real run).
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${API}/moderations/generate-allocations`,
      headers: admin,
      payload: {
        allocation_params: {
          event_id: event!.row_id,
          moderation_seed: 1,
          nr_of_moderations_per_review: 4,
          min_spot_check_per_reviewer: 2,
          dry_run: false,
        },
      },
    });
    expect(again.statusCode).toBe(409);
  });

  it('keeps the demo reviewer with 20 allocations in Fund 15 (demo)', async () => {
    await seedDemo(ctx.db);
    const reviewer = await loginAs('cardano/demo-reviewer');
    const allocated = await ctx.app.inject({ method: 'GET', url: `${API}/proposals/allocated?size=100`, headers: reviewer });
    expect(allocated.statusCode).toBe(200);
    expect(json(allocated).page.total).toBe(20);
  });

  // Issue 26 item 14: the navigation shows a moderator's links only for a current event with moderation open, and a
  // reviewer's only for a current event with review submission open (spec §2.3) — the web app's rule, read here from
  // the answers it reads.
  it('makes the moderation round current next to Fund 15: the moderator and the reviewer each have their links', async () => {
    await seedDemo(ctx.db);
    const current = json(await ctx.app.inject({ method: 'GET', url: `${API}/events/current/` })) as { row_id: number; name: string }[];
    expect(current.map((event) => event.name).sort()).toEqual([DEMO_EVENT.name, DEMO_MODERATION_EVENT.name].sort());
    const configs = new Map<number, Record<string, boolean | string | null>>();
    for (const event of current)
      configs.set(event.row_id, json(await ctx.app.inject({ method: 'GET', url: `${API}/configs/reviews/${event.row_id}/` })).value);
    const open = (name: 'moderation_submission_enabled' | 'review_submission_enabled') =>
      current.filter((event) => switchActive(configs.get(event.row_id), name)).map((event) => event.row_id);
    const me = async (catalystId: string) =>
      json(await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: await loginAs(catalystId) })) as UserInfo;

    const moderator = await me('cardano/demo-moderator');
    expect(open('moderation_submission_enabled').some((eventId) => isModerator(moderator, eventId))).toBe(true);
    const reviewer = await me('cardano/demo-reviewer');
    expect(open('review_submission_enabled').some((eventId) => canReview(reviewer, eventId))).toBe(true);
    expect(open('moderation_submission_enabled').some((eventId) => isModerator(reviewer, eventId))).toBe(false);
    // The stage the navigation's badge shows: moderation wins over review (spec §4).
    expect(deriveStage([...configs.values()])).toBe('moderation_open');
  });

  it("lists the two current rounds' proposals with no title twice (the moderation round has its own)", async () => {
    await seedDemo(ctx.db);
    const listed = json(await ctx.app.inject({ method: 'GET', url: `${API}/proposals/?size=100` }));
    const titles = (listed.data as { title: string }[]).map((proposal) => proposal.title);
    expect(titles).toHaveLength(31 + 12);
    expect(new Set(titles).size).toBe(titles.length);
  });

  // Issue 27 item 3: reminders are on in the demo's current rounds, and a due one reaches the demo's people.
  it('has reminders on in both current rounds: the demo moderator and reviewer get one before each window closes', async () => {
    await seedDemo(ctx.db);
    const admin = await loginAs('cardano/demo-admin');
    // The moderation window closes first: a run at the later time would find it closed and skip its reminders.
    for (const name of [DEMO_MODERATION_EVENT.name, DEMO_EVENT.name]) {
      const event = await eventNamed(name);
      const reminders = json(
        await ctx.app.inject({ method: 'GET', url: `${API}/configs/notifications/${event!.row_id}/`, headers: admin }),
      );
      expect(reminders.value, name).toEqual({ review_reminders_enabled: true, moderation_reminders_enabled: true, hours_before: [72, 24] });
      const config = json(await ctx.app.inject({ method: 'GET', url: `${API}/configs/reviews/${event!.row_id}/` })).value;
      const end = config[name === DEMO_EVENT.name ? 'review_submission_ends_at' : 'moderation_submission_ends_at'] as string;
      const outcomes = await ctx.app.services.reminders.runDueReminders(new Date(Date.parse(end) - 71 * 3_600_000));
      expect(
        outcomes.filter((outcome) => outcome.eventId === event!.row_id && outcome.status === 'sent'),
        name,
      ).toHaveLength(1);
    }
    await ctx.app.services.afterResponse.settled();
    await ctx.app.services.mailWorker.drain(); // reminders are rendered when the worker delivers them
    const moderatorMail = await ctx.lastMail('moderator@demo.local');
    expect(moderatorMail!.kind).toBe('moderation_reminder');
    expect(moderatorMail!.subject).toMatch(/^Reminder: \d+ of \d+ reviews moderated in Moderation round \(demo\)$/);
    const reviewerMail = await ctx.lastMail('reviewer@demo.local');
    expect(reviewerMail!.kind).toBe('review_reminder');
    expect(reviewerMail!.subject).toMatch(/^Reminder: \d+ of 20 proposals reviewed in Fund 15 \(demo\)$/);
  });
  // Issue 30 item 6: the review lists send JSON.stringify of their answers instead of the schema's serializer.
  it('the review lists send exactly the text the response schema would: fields in its order, nothing more', async () => {
    await seedDemo(ctx.db);
    const event = await eventNamed(DEMO_MODERATION_EVENT.name);
    const moderator = await loginAs('cardano/demo-moderator');
    const admin = await loginAs('cardano/demo-admin');
    const allocated = json(await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/allocated/?size=100`, headers: moderator }));
    const ids = (allocated.data as { row_id: number }[]).slice(0, 5).map((review) => `ids=${review.row_id}`);
    const lists: [string, Record<string, string> | undefined, z.ZodType][] = [
      ['proposal-reviews/allocated/?size=100', moderator, paged(reviewPublic)],
      ['proposal-reviews/moderated/?size=100', moderator, paged(reviewPublic)],
      [`proposal-reviews/filtered?size=100&event_id=${event!.row_id}`, moderator, paged(reviewPublic)],
      [`proposal-reviews/filtered?size=100&event_id=${event!.row_id}`, undefined, paged(reviewPublic)],
      ['proposal-reviews/?size=100', admin, paged(reviewPublic)],
      [`proposal-reviews/by-ids/?${ids.join('&')}`, moderator, z.array(reviewPublic)],
    ];
    for (const [path, headers, schema] of lists) {
      const response = await ctx.app.inject({ method: 'GET', url: `${API}/${path}`, headers });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body, path).toBe(JSON.stringify(schema.parse(JSON.parse(response.body))));
    }
    // A page past the end: no rows, and still the list's total (counted apart).
    const past = json(
      await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/allocated/?size=100&page=9`, headers: moderator }),
    );
    expect(past).toEqual({ data: [], page: { total: allocated.page.total, size: 100, page: 9 } });
    const withFlags = (allocated.data as { flags: unknown[] }[]).filter((review) => review.flags.length > 0);
    expect(withFlags.length).toBeGreaterThan(0);
  });
  // Issue 30 item 6: the lists' answers are written by PostgreSQL (reviews.repository `wireReviewColumns`), a review's
  // detail by the server from its row and the moderations service's rules: both must say the same of every review.
  it('the lists written in SQL answer each review as its detail does, for a moderator, a reviewer, an admin and anonymously', async () => {
    await seedDemo(ctx.db);
    const event = await eventNamed(DEMO_MODERATION_EVENT.name);
    const viewers: [string, Record<string, string> | undefined][] = [
      ['moderator', await loginAs('cardano/demo-moderator')],
      ['reviewer', await loginAs('cardano/demo-reviewer')],
      ['admin', await loginAs('cardano/demo-admin')],
      ['anonymous', undefined],
    ];
    const get = async (path: string, headers: Record<string, string> | undefined) =>
      json(await ctx.app.inject({ method: 'GET', url: `${API}/${path}`, headers }));
    // The moderator moderates the second review allocated to them: their own moderation, and a queue around it.
    const moderator = viewers[0]![1];
    const queued = (await get('proposal-reviews/allocated/?size=100', moderator)).data as ReviewPublic[];
    const saved = await ctx.app.inject({
      method: 'POST',
      url: `${API}/moderations/`,
      headers: moderator,
      payload: { new_moderation: { review_id: queued[1]!.row_id, classification: 1, rationale: 'Checked against the proposal.' } },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    let compared = 0;
    for (const [who, headers] of viewers) {
      const page = (await get(`proposal-reviews/filtered?size=100&event_id=${event!.row_id}`, headers)).data as ReviewPublic[];
      const moderatorPages =
        who === 'moderator'
          ? [
              ...(await get('proposal-reviews/allocated/?size=100', headers)).data,
              ...(await get('proposal-reviews/moderated/?size=100', headers)).data,
            ]
          : [];
      const byIds =
        page.length > 0
          ? ((await get(
              `proposal-reviews/by-ids/?${page
                .slice(0, 30)
                .map((r) => `ids=${r.row_id}`)
                .join('&')}`,
              headers,
            )) as ReviewPublic[])
          : [];
      for (const listed of [...page.slice(0, 30), ...byIds, ...(moderatorPages as ReviewPublic[])]) {
        const {
          edit_count: _edits,
          changed_after_moderation: _changed,
          ...detail
        } = (await get(`proposal-reviews/${listed.row_id}/`, headers)) as ReviewPublic;
        expect(listed, `${who} ${listed.row_id}`).toEqual(detail);
        compared += 1;
      }
      if (who === 'moderator') {
        expect(moderatorPages.some((review: ReviewPublic) => review.moderation !== null)).toBe(true);
        expect(moderatorPages.some((review: ReviewPublic) => review.next_allocation !== null)).toBe(true);
      }
      if (who === 'admin') expect(page.some((review) => review.moderated && review.moderation === null)).toBe(true);
    }
    expect(compared).toBeGreaterThan(90);
  });
});
