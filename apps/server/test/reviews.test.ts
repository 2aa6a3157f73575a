import { beforeAll, describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';
import { reviewFields as fields, type TestEvent } from './world-fixtures';

type Auth = TestUser | null;

describe.each(databaseKinds)('reviews on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  /** Each test has its own event, open for subscription and review submission, reviews visible. */
  let event: TestEvent;
  let eventId: number;
  const openEvent = async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true, review_visibility_enabled: true } });
    eventId = event.id;
    return event;
  };
  const reviewer = () => ctx.newReviewer(event);
  const newProposal = async (category?: string) => (await ctx.newProposal(event, { category })).id;
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
  const setSwitches = (record: Record<string, boolean>) => ctx.configure(event, record);

  it('an active reviewer writes a review; it answers the spec fields (E-002, E-011, E-042)', async () => {
    await openEvent();
    const [reviewed, other] = [await newProposal(), await newProposal()];
    const user = await reviewer();
    const response = await create(user, reviewed);
    expect(response.statusCode).toBe(201);
    const review = response.json();
    expect(review).toMatchObject({
      proposal_id: reviewed,
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
    const own = await f.get(`proposals/${reviewed}/submitted-review/`, user);
    expect(own.json().row_id).toBe(review.row_id);
    expect((await f.get(`proposals/${other}/submitted-review/`, user)).statusCode).toBe(404); // E-009
    // has_reviewed is the viewer's own: true for the writer, false for another reviewer and for an anonymous visitor.
    const hasReviewed = async (viewer?: TestUser) =>
      (await f.get(`proposals/?event_id=${eventId}&size=100`, viewer)).json().data.find((p: { row_id: number }) => p.row_id === reviewed)
        .has_reviewed;
    expect([await hasReviewed(user), await hasReviewed(await reviewer()), await hasReviewed()]).toEqual([true, false, false]);
    // The detail's too (its JSON is written by PostgreSQL: issue 45 item 13).
    const detailHasReviewed = async (viewer?: TestUser) => (await f.get(`proposals/${reviewed}/`, viewer)).json().has_reviewed;
    expect([await detailHasReviewed(user), await detailHasReviewed(await reviewer()), await detailHasReviewed()]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses a second review of the same proposal with 409', async () => {
    await openEvent();
    const proposal = await newProposal();
    const user = await reviewer();
    expect((await create(user, proposal)).statusCode).toBe(201);
    const again = await create(user, proposal);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You have already reviewed this proposal.' });
  });

  it('refuses a review in an objective the reviewer authored in (403, E-006)', async () => {
    await openEvent();
    // The author wrote a proposal in the 'Cardano Open: Ecosystem' objective.
    const author = await ctx.newUser();
    await ctx.newProposal(event, { author, category: 'Cardano Open: Ecosystem' });
    const sameObjective = await newProposal('Cardano Open: Ecosystem');
    const otherObjective = await newProposal('Cardano Open: Developers');
    await ctx.newReviewer(event, { user: author });
    const response = await create(author, sameObjective);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('You cannot review proposals in an objective where you are an author.');
    expect((await create(author, otherObjective)).statusCode).toBe(201);
  });

  it('refuses anonymous callers (401), users without a subscription, and writes while submission is off (403 with a message)', async () => {
    await openEvent();
    const [first, second] = [await newProposal(), await newProposal()];
    expect((await create(null, first)).statusCode).toBe(401);
    const stranger = await ctx.newUser();
    expect((await create(stranger, first)).json()).toEqual({ message: 'You are not an active reviewer of this event.' });
    const user = await reviewer();
    const written = await ctx.newReview(user, first);
    await setSwitches({ review_submission_enabled: false });
    try {
      const closed = await create(user, second);
      expect(closed.statusCode).toBe(403);
      expect(closed.json()).toEqual({ message: 'Review submission is not open for this event.' });
      expect((await update(user, written.row_id)).statusCode).toBe(403);
      expect((await remove(user, written.row_id)).statusCode).toBe(403);
    } finally {
      await setSwitches({ review_submission_enabled: true });
    }
    expect((await create(user, 999_999)).statusCode).toBe(404);
  });

  it('validates every field with 422 and its location: ratings 1–5, notes 200–3000 characters without spaces (E-017, E-019..E-022)', async () => {
    await openEvent();
    const proposal = await newProposal();
    const user = await reviewer();
    const spaced = `${'a '.repeat(199)}`; // 199 characters that count, many spaces that don't
    const response = await create(user, proposal, {
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
      payload: { new_proposal_review: { proposal_id: proposal } },
    });
    expect(missing.statusCode).toBe(422);
    expect((missing.json().detail as unknown[]).length).toBe(6);
    // 200 counted characters with spaces and newlines in between pass.
    expect((await create(user, proposal, { impact_alignment_note: `${'ab \n\t'.repeat(100)}` })).statusCode).toBe(201);
  });

  it('only the author edits or deletes a review (403 for others); delete answers the row id (E-010, E-014)', async () => {
    await openEvent();
    const owner = await reviewer();
    const other = await reviewer();
    const review = await ctx.newReview(owner, await newProposal());
    expect((await update(other, review.row_id)).statusCode).toBe(403);
    expect((await remove(other, review.row_id)).json()).toEqual({ message: 'You can only change or delete your own review.' });
    const updated = await update(owner, review.row_id, { impact_alignment_rating_given: 1 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().impact_alignment_rating_given).toBe(1);
    expect((await remove(owner, review.row_id)).json()).toEqual({ row_id: review.row_id });
    expect((await f.get(`proposal-reviews/${review.row_id}/`, admin)).statusCode).toBe(404);
    expect((await remove(owner, review.row_id)).statusCode).toBe(404);
  });

  // Issue 13 item 11: a 403 would tell that a hidden review exists.
  it('answers 404, like a missing review, when someone changes or deletes a review they may not see', async () => {
    await openEvent();
    const owner = await reviewer();
    const other = await reviewer();
    const review = await ctx.newReview(owner, await newProposal());
    await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: false });
    const notFound = { message: 'The review you are looking for does not exist.' };
    const updated = await update(other, review.row_id);
    expect(updated.statusCode).toBe(404);
    expect(updated.json()).toEqual(notFound);
    const removed = await remove(other, review.row_id);
    expect(removed.statusCode).toBe(404);
    expect(removed.json()).toEqual(notFound);
    expect((await update(owner, review.row_id)).statusCode).toBe(200); // still there, and still the owner's
  });

  it('shows reviews to everyone only while review visibility or moderation is on; the author and admins always (B-008)', async () => {
    await openEvent();
    const proposal = await newProposal();
    const owner = await reviewer();
    const review = await ctx.newReview(owner, proposal);
    const stranger = await ctx.newUser();
    await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: false });
    try {
      expect((await f.get(`proposal-reviews/${review.row_id}/`)).statusCode).toBe(404);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, stranger)).statusCode).toBe(404);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, owner)).statusCode).toBe(200);
      expect((await f.get(`proposal-reviews/${review.row_id}/`, admin)).statusCode).toBe(200);
      expect((await f.get(`proposal-reviews/filtered?proposal_id=${proposal}`)).json().page.total).toBe(0);
      // The lists apply the same visibility: by ids (the statement reads the viewer's own subscriptions) and filtered.
      const byIds = async (user?: Auth) =>
        ((await f.get(`proposal-reviews/by-ids/?ids=${review.row_id}`, user ?? undefined)).json() as { row_id: number }[]).map(
          (row) => row.row_id,
        );
      expect(await byIds()).toEqual([]);
      expect(await byIds(stranger)).toEqual([]);
      expect(await byIds(owner)).toEqual([review.row_id]);
      expect(await byIds(admin)).toEqual([review.row_id]);
      const listed = async (user: Auth) =>
        (await f.get(`proposal-reviews/filtered?proposal_id=${proposal}`, user ?? undefined))
          .json()
          .data.map((row: { row_id: number }) => row.row_id);
      expect(await listed(stranger)).toEqual([]);
      expect(await listed(owner)).toEqual([review.row_id]);
      expect(await listed(admin)).toEqual([review.row_id]);
      await setSwitches({ review_visibility_enabled: true });
      expect((await f.get(`proposal-reviews/${review.row_id}/`)).statusCode).toBe(200); // E-001
      expect((await f.get(`proposal-reviews/filtered?proposal_id=${proposal}`)).json().page.total).toBe(1);
      await setSwitches({ review_visibility_enabled: false, moderation_submission_enabled: true });
      expect((await f.get(`proposal-reviews/${review.row_id}/`, stranger)).statusCode).toBe(200);
    } finally {
      await setSwitches({ review_visibility_enabled: true, moderation_submission_enabled: false });
    }
  });

  it('filters by proposal, title, objective, my reviews, assessors and rankings, pages by 25, and answers by ids (E-029, E-035, E-036, E-037)', async () => {
    await openEvent();
    // Six proposals in two objectives.
    const proposals: number[] = [];
    for (const category of ['Objective A', 'Objective A', 'Objective A', 'Objective B', 'Objective B', 'Objective B'])
      proposals.push(await newProposal(category));
    const one = await reviewer();
    const two = await reviewer();
    const mine: { row_id: number; assessor: string; proposal: { title: string; objective_title: string | null } }[] = [];
    for (const id of proposals) mine.push(await ctx.newReview(one, id));
    await ctx.newReview(two, proposals[0]!);
    const list = async (query: string, user: Auth = null) =>
      (await f.get(`proposal-reviews/filtered?event_id=${eventId}&${query}`, user ?? undefined)).json();
    expect((await list(`proposal_id=${proposals[0]}`)).page.total).toBe(2);
    expect((await list(`my_reviews=true`, one)).page.total).toBe(6);
    expect((await list(`assessors=${mine[0]!.assessor}`)).page.total).toBe(6);
    const other = (await list(`proposal_id=${proposals[0]}&assessors=${mine[0]!.assessor}&assessors=zzzzzzzzzz`)).data;
    expect(other).toHaveLength(1);
    expect((await list(`rankings=0&size=1`)).page.size).toBe(1);
    expect((await list(`rankings=1`)).page.total).toBe(0);
    expect((await list(`rankings=1&include_pending=true&proposal_id=${proposals[0]}`)).page.total).toBe(2);
    const title = mine[1]!.proposal.title as string;
    expect(
      (await list(`proposal=${encodeURIComponent(title.slice(2, 12).toUpperCase())}`)).data.every((r: { proposal: { title: string } }) =>
        r.proposal.title.toLowerCase().includes(title.slice(2, 12).toLowerCase()),
      ),
    ).toBe(true);
    expect((await list(`objective=999999`)).page.total).toBe(0);
    const objectiveOf = (await f.get(`proposals/${proposals[0]}/`)).json().objective as number;
    const byObjective = await list(`objective=${objectiveOf}&size=100`);
    expect(byObjective.page.total).toBeGreaterThanOrEqual(2);
    expect(
      byObjective.data.every(
        (r: { proposal: { objective_title: string } }) => r.proposal.objective_title === mine[0]!.proposal.objective_title,
      ),
    ).toBe(true);
    expect((await list('')).page.size).toBe(25);
    // E-037: the plain list takes the same page and filters (the allocated and moderated suffixes come with moderation).
    const plain = (await f.get(`proposal-reviews/?size=25&page=0&event_id=${eventId}&proposal_id=${proposals[0]}`)).json();
    expect(plain.page).toEqual({ total: 2, size: 25, page: 0 });
    const byIds = await f.get(`proposal-reviews/by-ids/?${mine.map((r) => `ids=${r.row_id}`).join('&')}`);
    expect(byIds.json().map((r: { row_id: number }) => r.row_id)).toEqual(mine.map((r) => r.row_id));
    // Many ids at once, unknown ones simply absent.
    const many = await f.get(
      `proposal-reviews/by-ids/?${[...mine.map((r) => r.row_id), ...Array.from({ length: 300 }, (_, i) => 900_000 + i)].map((id) => `ids=${id}`).join('&')}`,
    );
    expect(many.statusCode).toBe(200);
    expect(many.json()).toHaveLength(6);
    // No ids: no reviews (the reference API's `ids` is optional, issue 17).
    expect((await f.get('proposal-reviews/by-ids/')).json()).toEqual([]);
    expect((await f.get(`proposal-reviews/filtered?rankings=9`)).statusCode).toBe(422);
  });
});
