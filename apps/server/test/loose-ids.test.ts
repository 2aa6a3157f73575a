import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { reviews } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestProposal } from './world-fixtures';

/**
 * Issue 26 item 5: an id in a path or a query is plain decimal digits. `z.coerce` read `0x1`, `1e0`, ` 1`, `01.0`,
 * `+1`, … as 1, so `GET events/0x1/` answered event 1 and `DELETE proposal-reviews/%201/` deleted review 1; now each
 * such form is refused (422, or 404) as a JSON body's id already is, and nothing is deleted. Routes of D-022, E-014,
 * E-043, F-035 and F-045.
 */
const looseForms = (id: number) => [
  `0x${id.toString(16)}`,
  `0o${id.toString(8)}`,
  `0b${id.toString(2)}`,
  `${id}e0`,
  `${id}.0`,
  `0${id}.0`,
  `0${id}`,
  `%20${id}`,
  `${id}%20`,
  `%09${id}`,
  `${id}%0A`,
  `%2B${id}`,
  `+${id}`,
];

describe.each(databaseKinds)('loose ids in paths and queries are refused on %s', (kind) => {
  const ctx = useTestApp(kind);
  let event: TestEvent;
  let proposal: TestProposal;
  let author: TestUser;
  let reviewId: number;
  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true, review_visibility_enabled: true } });
    proposal = await ctx.newProposal(event);
    author = await ctx.newReviewer(event);
    reviewId = (await ctx.newReview(author, proposal)).row_id;
  });

  const call = (method: 'GET' | 'DELETE', url: string) => ctx.app.inject({ method, url: `${API}/${url}`, headers: author.auth });
  const reviewExists = async () => (await ctx.db.select().from(reviews).where(eq(reviews.id, reviewId))).length === 1;

  /** The routes that read an id, each as a URL of the id's text. */
  const routes = () => [
    { name: 'GET events/{id}/', url: (id: string) => `events/${id}/` },
    { name: 'GET proposals/{id}/', url: (id: string) => `proposals/${id}/` },
    { name: 'GET proposal-reviews/{id}/', url: (id: string) => `proposal-reviews/${id}/` },
    { name: 'GET moderations/by-review/{review_id}/', url: (id: string) => `moderations/by-review/${id}/` },
    { name: 'GET proposals/?event_id=', url: (id: string) => `proposals/?event_id=${id}` },
    { name: 'GET proposal-reviews/?proposal_id=', url: (id: string) => `proposal-reviews/?proposal_id=${id}` },
    { name: 'GET proposal-reviews/by-ids/?ids=', url: (id: string) => `proposal-reviews/by-ids/?ids=${id}` },
  ];
  const idOf = (name: string) => (name.includes('event') ? event.id : name.includes('review') ? reviewId : proposal.id);

  it('answers the plain decimal id (the control for the table below)', async () => {
    for (const route of routes()) {
      const response = await call('GET', route.url(String(idOf(route.name))));
      expect(response.statusCode, route.name).toBe(200);
    }
  });

  it('refuses every other way of writing the id with 422 or 404 (issue 26 item 5)', async () => {
    for (const route of routes()) {
      for (const form of looseForms(idOf(route.name))) {
        const response = await call('GET', route.url(form));
        expect([404, 422], `${route.name} with ${form}: ${response.body}`).toContain(response.statusCode);
      }
    }
  });

  it('refuses paging written loosely with 422 (issue 26 item 5)', async () => {
    for (const form of ['0x19', '25e0', '25.0', '%2025', '%2B25', '025']) {
      expect((await call('GET', `proposals/?size=${form}`)).statusCode, `size=${form}`).toBe(422);
      expect((await call('GET', `proposals/?page=${form}`)).statusCode, `page=${form}`).toBe(422);
    }
  });

  it('a DELETE of a loosely written review id deletes nothing (issue 26 item 5)', async () => {
    for (const form of looseForms(reviewId)) {
      const response = await call('DELETE', `proposal-reviews/${form}/`);
      expect([404, 422], `DELETE proposal-reviews/${form}/: ${response.body}`).toContain(response.statusCode);
      expect(await reviewExists(), form).toBe(true);
    }
    expect((await call('DELETE', `proposal-reviews/${reviewId}/`)).statusCode).toBe(200);
    expect(await reviewExists()).toBe(false);
  });
});
