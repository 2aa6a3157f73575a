import { beforeAll, describe, expect, it } from 'vitest';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

type Auth = TestUser | null;

const validNote = 'This proposal is clear about its goal and budget. '.repeat(6);
const fields = (overrides: Record<string, unknown> = {}) => ({
  impact_alignment_rating_given: 4,
  impact_alignment_note: validNote,
  feasibility_rating_given: 3,
  feasibility_note: validNote,
  auditability_rating_given: 5,
  auditability_note: validNote,
  ...overrides,
});

describe.each(databaseKinds)('reviews on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let author: TestUser;
  let eventId: number;
  let proposalIds: number[];
  let ecosystemIds: number[];
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    author = await ctx.newUser();
    const event = await f.newEvent(admin, { active: true });
    eventId = event.row_id;
    await f.put(`configs/reviews/${eventId}/`, admin, {
      record_update: { reviewer_subscription_enabled: true, review_submission_enabled: true },
    });
    // The author wrote the first proposal, in the 'Cardano Open: Ecosystem' objective.
    const file = sampleImportFile({ authorOf: (index) => (index === 0 ? author.catalystId : `id.catalyst://cardano/someone-${index}`) });
    await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposals/import/${eventId}`,
      headers: admin.auth,
      payload: { import_options: { source: 'file', file, dry_run: false } },
    });
    const list = (await f.get(`proposals/?event_id=${eventId}&size=100`)).json();
    proposalIds = list.data.map((p: { row_id: number }) => p.row_id);
    ecosystemIds = list.data
      .filter((p: { objective_title: string }) => p.objective_title === 'Cardano Open: Ecosystem')
      .map((p: { row_id: number }) => p.row_id);
  });

  const reviewer = async () => {
    const user = await ctx.newUser();
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/`,
      headers: user.auth,
      payload: {
        new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId },
      },
    });
    expect(subscribed.statusCode).toBe(201);
    return user;
  };
  const create = (user: Auth, proposalId: number, overrides: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: user ? user.auth : {},
      payload: { new_proposal_review: { proposal_id: proposalId, ...fields(overrides) } },
    });
  const update = (user: Auth, id: number, overrides: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'PUT',
      url: `${API}/proposal-reviews/${id}/`,
      headers: user ? user.auth : {},
      payload: { proposal_review_update: { row_id: id, ...fields(overrides) } },
    });
  const remove = (user: Auth, id: number) =>
    ctx.app.inject({ method: 'DELETE', url: `${API}/proposal-reviews/${id}/`, headers: user ? user.auth : {} });
  const setSwitches = (record: Record<string, unknown>) =>
    f.put(`configs/reviews/${eventId}/`, admin, {
      record_update: { reviewer_subscription_enabled: true, review_submission_enabled: true, ...record },
    });

  it('an active reviewer writes a review; it answers the spec fields (E-002, E-011, E-042)', async () => {
    const user = await reviewer();
    const response = await create(user, proposalIds[10]!);
    expect(response.statusCode).toBe(201);
    const review = response.json();
    expect(review).toMatchObject({
      proposal_id: proposalIds[10],
      assessor_level: 0,
      ranking: 0,
      allocated: false,
      moderated: false,
      flags: [],
      moderation: null,
      overall_score: 4,
      event: eventId,
    });
    expect(review.assessor).toMatch(/^[a-z2-7]{10}$/);
    expect(review.proposal).toMatchObject({ event_id: eventId });
    const own = await f.get(`proposals/${proposalIds[10]}/submitted-review/`, user);
    expect(own.json().row_id).toBe(review.row_id);
    expect((await f.get(`proposals/${proposalIds[11]}/submitted-review/`, user)).statusCode).toBe(404); // E-009
    expect(
      (await f.get(`proposals/?event_id=${eventId}&size=100`, user))
        .json()
        .data.find((p: { row_id: number }) => p.row_id === proposalIds[10]).has_reviewed,
    ).toBe(true);
  });

  it('refuses a second review of the same proposal with 409', async () => {
    const user = await reviewer();
    expect((await create(user, proposalIds[12]!)).statusCode).toBe(201);
    const again = await create(user, proposalIds[12]!);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You have already reviewed this proposal.' });
  });

  it('refuses a review in an objective the reviewer authored in (403, E-006)', async () => {
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/`,
      headers: author.auth,
      payload: {
        new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId },
      },
    });
    expect(subscribed.statusCode).toBe(201);
    const response = await create(author, ecosystemIds[3]!);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You cannot review proposals in an objective where you are an author.');
    expect(
      (
        await create(
          author,
          proposalIds.find((id) => !ecosystemIds.includes(id))!,
        )
      ).statusCode,
    ).toBe(201);
  });

  it('refuses anonymous callers (401), users without a subscription, and writes while submission is off (403 with a message)', async () => {
    expect((await create(null, proposalIds[0]!)).statusCode).toBe(401);
    const stranger = await ctx.newUser();
    expect((await create(stranger, proposalIds[0]!)).json()).toEqual({ message: 'You are not an active reviewer of this event.' });
    const user = await reviewer();
    const written = (await create(user, proposalIds[13]!)).json();
    await setSwitches({ review_submission_enabled: false });
    try {
      const closed = await create(user, proposalIds[14]!);
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toEqual({ message: 'Review submission is not open for this event.' });
      expect((await update(user, written.row_id)).statusCode).toBe(403);
      expect((await remove(user, written.row_id)).statusCode).toBe(403);
    } finally {
      await setSwitches({});
    }
    expect((await create(user, 999_999)).statusCode).toBe(404);
  });

  it('validates every field with 422 and its location: ratings 1–5, notes 200–3000 characters without spaces (E-017, E-019..E-022)', async () => {
    const user = await reviewer();
    const spaced = `${'a '.repeat(199)}`; // 199 characters that count, many spaces that don't
    const response = await create(user, proposalIds[15]!, {
      impact_alignment_rating_given: 0,
      feasibility_rating_given: 6,
      auditability_rating_given: 2.5,
      impact_alignment_note: spaced,
      feasibility_note: 'x'.repeat(3001),
      auditability_note: '   ',
    });
    expect(response.statusCode).toBe(422);
    const detail = response.json().detail as { loc: (string | number)[]; msg: string }[];
    const at = (name: string) => detail.find((item) => item.loc.at(-1) === name)?.msg;
    expect(at('impact_alignment_rating_given')).toBe('Rating must be between 1 and 5');
    expect(at('feasibility_rating_given')).toBe('Rating must be between 1 and 5');
    expect(at('auditability_rating_given')).toBe('Rating must be between 1 and 5');
    expect(at('impact_alignment_note')).toBe('Please provide at least 200 characters');
    expect(at('feasibility_note')).toBe('Content must not exceed 3000 characters (excluding spaces), currently 3001');
    expect(at('auditability_note')).toBe('Auditability note is required.');
    const missing = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: user.auth,
      payload: { new_proposal_review: { proposal_id: proposalIds[15] } },
    });
    expect(missing.statusCode).toBe(422);
    expect((missing.json().detail as unknown[]).length).toBe(6);
    // 200 counted characters with spaces and newlines in between pass.
    expect((await create(user, proposalIds[15]!, { impact_alignment_note: `${'ab \n\t'.repeat(100)}` })).statusCode).toBe(201);
  });

  it('only the author edits or deletes a review (403 for others who may see it); delete answers the row id (E-010, E-014)', async () => {
    const owner = await reviewer();
    const other = await reviewer();
    const review = (await create(owner, proposalIds[16]!)).json();
    await setSwitches({ review_visibility_enabled: true });
    try {
      expect((await update(other, review.row_id)).statusCode).toBe(403);
      expect((await remove(other, review.row_id)).json()).toEqual({ message: 'You can only change or delete your own review.' });
    } finally {
      await setSwitches({ review_visibility_enabled: false });
    }
    const updated = await update(owner, review.row_id, { impact_alignment_rating_given: 1 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().impact_alignment_rating_given).toBe(1);
    expect((await remove(owner, review.row_id)).json()).toEqual({ row_id: review.row_id });
    expect((await f.get(`proposal-reviews/${review.row_id}/`, admin)).statusCode).toBe(404);
    expect((await remove(owner, review.row_id)).statusCode).toBe(404);
  });

  // Issue 13 item 11: a 403 would tell that a hidden review exists.
  it('answers 404, like a missing review, when someone changes or deletes a review they may not see', async () => {
    const owner = await reviewer();
    const other = await reviewer();
    const review = (await create(owner, proposalIds[18]!)).json();
    await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: false });
    try {
      const notFound = { message: 'The review you are looking for does not exist.' };
      const updated = await update(other, review.row_id);
      expect(updated.statusCode).toBe(404);
      expect(updated.json()).toEqual(notFound);
      const removed = await remove(other, review.row_id);
      expect(removed.statusCode).toBe(404);
      expect(removed.json()).toEqual(notFound);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, admin)).statusCode).toBe(200); // still there
      expect((await update(owner, review.row_id)).statusCode).toBe(200);
    } finally {
      await setSwitches({ review_visibility_enabled: true, moderation_submission_enabled: false });
    }
  });

  it('shows reviews to everyone only while review visibility or moderation is on; the author and admins always (B-008)', async () => {
    const owner = await reviewer();
    const review = (await create(owner, proposalIds[17]!)).json();
    const stranger = await ctx.newUser();
    await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: false });
    try {
      expect((await f.get(`proposal-reviews/${review.row_id}/`)).statusCode).toBe(404);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, stranger)).statusCode).toBe(404);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, owner)).statusCode).toBe(200);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, admin)).statusCode).toBe(200);
      expect((await f.get(`proposal-reviews/filtered?proposal_id=${proposalIds[17]}`)).json().page.total).toBe(0);
      await setSwitches({ review_visibility_enabled: true });
      expect((await f.get(`proposal-reviews/${review.row_id}/`)).statusCode).toBe(200); // E-001
      expect((await f.get(`proposal-reviews/filtered?proposal_id=${proposalIds[17]}`)).json().page.total).toBe(1);
      await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: true });
      expect((await f.get(`proposal-reviews/${review.row_id}/`, stranger)).statusCode).toBe(200);
    } finally {
      await setSwitches({ review_visibility_enabled: true, moderation_submission_enabled: false });
    }
  });

  it('filters by proposal, title, objective, my reviews, assessors and rankings, pages by 25, and answers by ids (E-029, E-035, E-036, E-037)', async () => {
    const one = await reviewer();
    const two = await reviewer();
    const mine: { row_id: number; assessor: string; proposal: { title: string; objective_title: string | null } }[] = [];
    for (const id of proposalIds.slice(20, 26)) mine.push((await create(one, id)).json());
    await create(two, proposalIds[20]!);
    const list = async (query: string, user: Auth = null) =>
      (await f.get(`proposal-reviews/filtered?event_id=${eventId}&${query}`, user ?? undefined)).json();
    expect((await list(`proposal_id=${proposalIds[20]}`)).page.total).toBe(2);
    expect((await list(`my_reviews=true`, one)).page.total).toBe(6);
    expect((await list(`assessors=${mine[0]!.assessor}`)).page.total).toBe(6);
    const other = (await list(`proposal_id=${proposalIds[20]}&assessors=${mine[0]!.assessor}&assessors=zzzzzzzzzz`)).data;
    expect(other).toHaveLength(1);
    expect((await list(`rankings=0&size=1`)).page.size).toBe(1);
    expect((await list(`rankings=1`)).page.total).toBe(0);
    expect((await list(`rankings=1&include_pending=true&proposal_id=${proposalIds[20]}`)).page.total).toBe(2);
    const title = mine[1]!.proposal.title as string;
    expect(
      (await list(`proposal=${encodeURIComponent(title.slice(2, 12).toUpperCase())}`)).data.every((r: { proposal: { title: string } }) =>
        r.proposal.title.toLowerCase().includes(title.slice(2, 12).toLowerCase()),
      ),
    ).toBe(true);
    expect((await list(`objective=999999`)).page.total).toBe(0);
    const objectiveOf = (await f.get(`proposals/${proposalIds[20]}/`)).json().objective as number;
    const byObjective = await list(`objective=${objectiveOf}&size=100`);
    expect(byObjective.page.total).toBeGreaterThanOrEqual(2);
    expect(
      byObjective.data.every(
        (r: { proposal: { objective_title: string } }) => r.proposal.objective_title === mine[0]!.proposal.objective_title,
      ),
    ).toBe(true);
    expect((await list('')).page.size).toBe(25);
    // E-037: the plain list takes the same page and filters (the allocated and moderated suffixes come with moderation).
    const plain = (await f.get(`proposal-reviews/?size=25&page=0&event_id=${eventId}&proposal_id=${proposalIds[20]}`)).json();
    expect(plain.page).toEqual({ total: 2, size: 25, page: 0 });
    const byIds = await f.get(`proposal-reviews/by-ids/?${mine.map((r) => `ids=${r.row_id}`).join('&')}`);
    expect(byIds.json().map((r: { row_id: number }) => r.row_id)).toEqual(mine.map((r) => r.row_id));
    // Many ids at once, unknown ones simply absent.
    const many = await f.get(
      `proposal-reviews/by-ids/?${[...mine.map((r) => r.row_id), ...Array.from({ length: 300 }, (_, i) => 900_000 + i)].map((id) => `ids=${id}`).join('&')}`,
    );
    expect(many.statusCode).toBe(200);
    expect(many.json()).toHaveLength(6);
    expect((await f.get('proposal-reviews/by-ids/')).statusCode).toBe(422);
    expect((await f.get(`proposal-reviews/filtered?rankings=9`)).statusCode).toBe(422);
  });
});
