import { describe, expect, it } from 'vitest';
import { FlagType } from '@cr/contract/flags';
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

    // The round is not a current event (the site's stage stays Fund 15's), yet the moderator moderates there.
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
});
