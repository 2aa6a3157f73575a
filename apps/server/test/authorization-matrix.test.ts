import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { AccountStatus } from '@cr/contract/users';
import { appealAllocations, appeals, moderationAllocations, moderations, subscriptions } from '../src/db/schema/index';
import { API, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';

/**
 * Issue 13, "Authorization matrix": every route the app registers (recorded by the auth plugin's onRoute hook) ×
 * every kind of caller → the status it must answer. A route without an entry here fails the test, so a new route
 * cannot ship without someone deciding who may call it.
 *
 * Writes whose outcome is not about access are sent with an empty body: a 422 then shows that the caller got past
 * the access rules (which run before the body is read), a 401/403 that it did not. Writes whose access depends on
 * the caller's account or subscriptions (subscribe, review, edit, delete) are sent for real.
 */
const ROLES = ['anonymous', 'inactive', 'forcedReset', 'lv0', 'lv1', 'lv2Other', 'lv2', 'admin'] as const;
type Role = (typeof ROLES)[number];
type Expected = Record<Role, number>;

const everyone = (status: number): Expected => Object.fromEntries(ROLES.map((role) => [role, status])) as Expected;
/** Any signed-in account: 401 for the anonymous caller. */
const signedIn = (status: number, overrides: Partial<Expected> = {}): Expected => ({ ...everyone(status), anonymous: 401, ...overrides });
/** A signed-in write refused while the password must be changed. */
const signedInWrite = (status: number, overrides: Partial<Expected> = {}) => signedIn(status, { forcedReset: 403, ...overrides });
/** Admins only: 401 anonymous, 403 for every other account. */
const adminOnly = (status: number): Expected => ({ ...signedIn(403), admin: status });

const validNote = 'The proposal explains its goal, budget and milestones in a way a reviewer can check. '.repeat(3);
const reviewFields = {
  impact_alignment_rating_given: 4,
  impact_alignment_note: validNote,
  feasibility_rating_given: 3,
  feasibility_note: validNote,
  auditability_rating_given: 5,
  auditability_note: validNote,
};

interface World {
  users: Record<Exclude<Role, 'anonymous'>, TestUser>;
  eventId: number;
  otherEventId: number;
  openEventId: number;
  proposalIds: number[];
  /** A review by lv0, hidden (review visibility is off). */
  reviewId: number;
  /** lv2's moderation of that review (allocated to lv2; moderation submission is off). */
  moderationId: number;
  /** lv0's appeal of that review, allocated to lv2 (issue 28 item 2). */
  appealId: number;
}

type RequestOf = (world: World, role: Role, ctx: ReturnType<typeof useTestApp>) => Promise<InjectOptions> | InjectOptions;
interface Entry {
  request: RequestOf;
  expect: Expected;
}

const get =
  (url: string): RequestOf =>
  () => ({ method: 'GET', url });
const send =
  (method: 'POST' | 'PUT' | 'DELETE', url: string | ((world: World) => string), payload: object = {}): RequestOf =>
  (world) => ({ method, url: typeof url === 'string' ? url : url(world), payload });

/** A request with lv0's signed unsubscribe link (review reminders); POST with the one-click field (as the web screen sends it). */
const unsubscribe =
  (method: 'GET' | 'POST' | 'DELETE'): RequestOf =>
  (world, _role, ctx) => ({
    method,
    url: `/notifications/unsubscribe?token=${encodeURIComponent(ctx.app.services.notifications.unsubscribeToken(world.users.lv0.id, 'review_reminder'))}`,
    ...(method === 'POST' ? { payload: { 'List-Unsubscribe': 'One-Click' } } : {}),
  });

/** Keyed by method and the route as registered, the API prefix left off. */
const matrix: Record<string, Entry> = {
  // system
  'GET /healthz': { request: get('/healthz'), expect: everyone(200) },
  'GET /readyz': { request: get('/readyz'), expect: everyone(200) },
  'GET /livez': { request: get('/livez'), expect: everyone(200) },
  'GET /dev/outbox': { request: get('/dev/outbox?to=nobody@example.test'), expect: adminOnly(200) },
  'GET /admin/audit/': { request: get('/admin/audit/'), expect: adminOnly(200) },
  'GET /admin/mail-queue/': { request: get('/admin/mail-queue/'), expect: adminOnly(200) },
  'POST /admin/mail-queue/retry': { request: send('POST', '/admin/mail-queue/retry'), expect: adminOnly(422) },
  'GET /admin/audit/actions/': { request: get('/admin/audit/actions/'), expect: adminOnly(200) },
  'GET /admin/audit/chain/': { request: get('/admin/audit/chain/'), expect: adminOnly(200) },
  // Issue 48: a round's open data is public; the world's round has no scores yet (409 for everyone).
  'GET /events/:id/open-data': {
    request: (world) => ({ method: 'GET', url: `/events/${world.eventId}/open-data` }),
    expect: everyone(409),
  },
  'GET /events/open-data/': { request: get('/events/open-data/'), expect: everyone(200) },
  'GET /events/:id/open-data/info': {
    request: (world) => ({ method: 'GET', url: `/events/${world.eventId}/open-data/info` }),
    expect: everyone(200),
  },
  // accounts: public forms (an empty body is answered 422 whoever calls)
  'POST /users/': { request: send('POST', '/users/'), expect: everyone(422) },
  'POST /users/token/login': { request: send('POST', '/users/token/login'), expect: everyone(422) },
  'GET /users/token/refresh': { request: get('/users/token/refresh'), expect: everyone(401) },
  'POST /users/token/logout': { request: send('POST', '/users/token/logout'), expect: everyone(200) },
  'POST /users/activate': { request: send('POST', '/users/activate'), expect: everyone(422) },
  'POST /users/password/reset-request': { request: send('POST', '/users/password/reset-request'), expect: everyone(422) },
  'POST /users/password/reset': { request: send('POST', '/users/password/reset'), expect: everyone(422) },
  'POST /catalyst-ids/verify-email': { request: send('POST', '/catalyst-ids/verify-email'), expect: everyone(422) },
  // accounts: one's own
  'GET /users/me/': { request: get('/users/me/'), expect: signedIn(200) },
  'GET /catalyst-ids/me': { request: get('/catalyst-ids/me'), expect: signedIn(200) },
  // The password change is the one write a forced reset allows.
  'POST /users/password/update': { request: send('POST', '/users/password/update'), expect: signedIn(422) },
  'POST /catalyst-ids/me': { request: send('POST', '/catalyst-ids/me'), expect: signedInWrite(422) },
  'GET /admin/users': { request: get('/admin/users'), expect: adminOnly(200) },
  'GET /admin/users/:id': { request: (world) => ({ method: 'GET', url: `/admin/users/${world.users.lv0.id}` }), expect: adminOnly(200) },
  // issue 47: ban and unban (admins), close and export (the person; close allowed during a forced reset)
  'POST /admin/users/:id/ban': { request: send('POST', (world) => `/admin/users/${world.users.lv0.id}/ban`), expect: adminOnly(422) },
  'POST /admin/users/:id/unban': { request: send('POST', (world) => `/admin/users/${world.users.lv0.id}/unban`), expect: adminOnly(409) },
  'POST /users/me/close': { request: send('POST', '/users/me/close'), expect: signedIn(422) },
  'GET /users/me/export': { request: get('/users/me/export'), expect: signedIn(200) },
  // events and configuration
  'GET /events/': { request: get('/events/'), expect: everyone(200) },
  'GET /events/current/': { request: get('/events/current/'), expect: everyone(200) },
  'GET /events/count/': { request: get('/events/count/'), expect: everyone(200) },
  'GET /events/:eventId/': { request: (world) => ({ method: 'GET', url: `/events/${world.eventId}/` }), expect: everyone(200) },
  'POST /events/': { request: send('POST', '/events/'), expect: adminOnly(422) },
  'PUT /events/:row_id/': { request: send('PUT', (world) => `/events/${world.eventId}/`), expect: adminOnly(422) },
  'GET /configs/reviews/:eventId/': {
    request: (world) => ({ method: 'GET', url: `/configs/reviews/${world.eventId}/` }),
    expect: everyone(200),
  },
  'PUT /configs/reviews/:eventId/': { request: send('PUT', (world) => `/configs/reviews/${world.eventId}/`), expect: adminOnly(422) },
  'GET /configs/reviews-level-qualifiers/:eventId/': {
    request: (world) => ({ method: 'GET', url: `/configs/reviews-level-qualifiers/${world.eventId}/` }),
    expect: adminOnly(200),
  },
  'PUT /configs/reviews-level-qualifiers/:eventId/': {
    request: send('PUT', (world) => `/configs/reviews-level-qualifiers/${world.eventId}/`),
    expect: adminOnly(422),
  },
  'GET /configs/allocations/:eventId/': {
    request: (world) => ({ method: 'GET', url: `/configs/allocations/${world.eventId}/` }),
    expect: adminOnly(200),
  },
  'GET /configs/status/': { request: get('/configs/status/'), expect: everyone(200) },
  'GET /configs/notifications/:eventId/': {
    request: (world) => ({ method: 'GET', url: `/configs/notifications/${world.eventId}/` }),
    expect: adminOnly(200),
  },
  'PUT /configs/notifications/:eventId/': {
    request: send('PUT', (world) => `/configs/notifications/${world.eventId}/`),
    expect: adminOnly(422),
  },
  // notifications (issue 27): one's own preferences; the one-click unsubscribe needs no login, only its signed link
  'GET /users/me/notifications/': { request: get('/users/me/notifications/'), expect: signedIn(200) },
  'PUT /users/me/notifications/': { request: send('PUT', '/users/me/notifications/'), expect: signedInWrite(422) },
  'PUT /users/me/language/': { request: send('PUT', '/users/me/language/'), expect: signedInWrite(422) },
  'GET /notifications/unsubscribe': { request: unsubscribe('GET'), expect: everyone(200) },
  'POST /notifications/unsubscribe': { request: unsubscribe('POST'), expect: everyone(200) },
  'DELETE /notifications/unsubscribe': { request: unsubscribe('DELETE'), expect: everyone(200) },
  // Offline review files (issue 29 item 2): one's own allocation; an empty upload is invalid (422)
  'GET /proposal-reviews/review-file/': { request: get('/proposal-reviews/review-file/'), expect: signedIn(200) },
  'POST /proposal-reviews/review-file/': { request: send('POST', '/proposal-reviews/review-file/'), expect: signedInWrite(422) },
  // API tokens (issue 29): one's own; a missing id revokes nothing (404), an empty creation is invalid (422)
  'GET /users/me/tokens/': { request: get('/users/me/tokens/'), expect: signedIn(200) },
  'POST /users/me/tokens/': { request: send('POST', '/users/me/tokens/'), expect: signedInWrite(422) },
  'DELETE /users/me/tokens/:id/': {
    request: () => ({ method: 'DELETE', url: '/users/me/tokens/2000000000/' }),
    expect: signedInWrite(404),
  },
  // the reference API's current event (issue 17): the event is active already, so nothing changes
  'GET /configs/current-event/': { request: get('/configs/current-event/'), expect: everyone(200) },
  'PUT /configs/current-event/:eventId/': {
    request: (world) => ({ method: 'PUT', url: `/configs/current-event/${world.eventId}/` }),
    expect: adminOnly(201),
  },
  'GET /categories/': { request: get('/categories/'), expect: everyone(200) },
  'PUT /configs/status/': { request: send('PUT', '/configs/status/'), expect: adminOnly(422) },

  // subscriptions: an open event none of the callers is subscribed to
  'POST /subscriptions/': {
    request: (world) => ({
      method: 'POST',
      url: '/subscriptions/',
      payload: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: world.openEventId } },
    }),
    expect: signedInWrite(201, { inactive: 403 }),
  },
  'POST /subscriptions/invitation': {
    request: (world) => ({
      method: 'POST',
      url: '/subscriptions/invitation',
      payload: { invitation_answer: { event_id: world.openEventId, status: 0 } },
    }),
    expect: signedInWrite(404, { inactive: 403 }),
  },
  'POST /subscriptions/invite': { request: send('POST', '/subscriptions/invite'), expect: adminOnly(422) },
  'POST /sumsub/webhook/': { request: send('POST', '/sumsub/webhook/'), expect: everyone(404) },
  // reviews
  'GET /proposal-reviews/': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/?event_id=${world.eventId}` }),
    expect: everyone(200),
  },
  'GET /proposal-reviews/filtered': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/filtered?event_id=${world.eventId}` }),
    expect: everyone(200),
  },
  'GET /proposal-reviews/by-ids/': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/by-ids/?ids=${world.reviewId}` }),
    expect: everyone(200),
  },
  // A hidden review: its author, the moderator it is allocated to (issue 14) and admins see it, no one else learns
  // that it exists.
  'GET /proposal-reviews/:id/': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/${world.reviewId}/` }),
    expect: { ...everyone(404), lv0: 200, lv2: 200, admin: 200 },
  },
  // Issue 28 item 3: a review's versions, to its author and admins only; one who may see the review is refused,
  // anyone else learns nothing of it.
  'GET /proposal-reviews/:id/versions/': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/${world.reviewId}/versions/` }),
    expect: signedIn(404, { lv0: 200, lv2: 403, admin: 200 }),
  },
  // Only an active LV0/LV1 reviewer of the proposal's event may review it.
  'POST /proposal-reviews/': {
    request: (world) => ({
      method: 'POST',
      url: '/proposal-reviews/',
      payload: { new_proposal_review: { proposal_id: world.proposalIds[1], ...reviewFields } },
    }),
    expect: signedInWrite(403, { lv0: 201, lv1: 201 }),
  },
  // Only the author edits a review.
  'PUT /proposal-reviews/:id/': {
    request: (world) => ({
      method: 'PUT',
      url: `/proposal-reviews/${world.reviewId}/`,
      payload: { proposal_review_update: { row_id: world.reviewId, ...reviewFields } },
    }),
    // issue 13 item 11: someone else's review they may not see is 404, like a missing one; an admin sees it: 403
    expect: signedInWrite(404, { lv0: 200, lv2: 403, admin: 403 }),
  },
  // Only the author deletes a review: each caller gets a fresh review of lv1's to try it on.
  'DELETE /proposal-reviews/:id/': {
    request: async (world, role, ctx) => {
      const proposalId = world.proposalIds[2 + ROLES.indexOf(role)]!;
      const created = await ctx.app.inject({
        method: 'POST',
        url: `${API}/proposal-reviews/`,
        headers: world.users.lv1.auth,
        payload: { new_proposal_review: { proposal_id: proposalId, ...reviewFields } },
      });
      expect(created.statusCode, created.body).toBe(201);
      return { method: 'DELETE', url: `/proposal-reviews/${created.json().row_id}/` };
    },
    expect: signedInWrite(404, { lv1: 200, admin: 403 }),
  },
  'GET /proposals/:id/submitted-review/': {
    request: (world) => ({ method: 'GET', url: `/proposals/${world.proposalIds[0]}/submitted-review/` }),
    expect: signedIn(404, { lv0: 200 }),
  },
  'POST /proposal-reviews/generate-allocations': {
    request: send('POST', '/proposal-reviews/generate-allocations'),
    expect: adminOnly(422),
  },
  // flags and moderation allocation (issue 14)
  'POST /flags/compute': { request: send('POST', '/flags/compute'), expect: adminOnly(422) },
  'POST /flags/import': { request: send('POST', '/flags/import'), expect: adminOnly(422) },
  'POST /moderations/generate-allocations': { request: send('POST', '/moderations/generate-allocations'), expect: adminOnly(422) },
  // Issue 28 item 1: moderation coverage and its top-up run.
  'GET /moderations/coverage': {
    request: (world) => ({ method: 'GET', url: `/moderations/coverage?event_id=${world.eventId}` }),
    expect: adminOnly(200),
  },
  'GET /moderations/coverage/reviews': {
    request: (world) => ({ method: 'GET', url: `/moderations/coverage/reviews?event_id=${world.eventId}&kind=ties` }),
    expect: adminOnly(200),
  },
  'GET /moderations/coverage/moderators': {
    request: (world) => ({ method: 'GET', url: `/moderations/coverage/moderators?event_id=${world.eventId}` }),
    expect: adminOnly(200),
  },
  'POST /moderations/top-up': { request: send('POST', '/moderations/top-up'), expect: adminOnly(422) },
  // review outcomes and proposal scores (issue 15)
  'POST /proposal-reviews/generate-results': { request: send('POST', '/proposal-reviews/generate-results'), expect: adminOnly(422) },
  'POST /proposals/generate-results': { request: send('POST', '/proposals/generate-results'), expect: adminOnly(422) },
  'GET /proposal-reviews/export/csv/:event/': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/export/csv/${world.eventId}/` }),
    expect: adminOnly(200),
  },
  'GET /proposal-reviews/export/full-csv/:event': {
    request: (world) => ({ method: 'GET', url: `/proposal-reviews/export/full-csv/${world.eventId}` }),
    expect: adminOnly(200),
  },
  'GET /moderations/export/csv': { request: get('/moderations/export/csv'), expect: adminOnly(200) },
  'GET /moderations/moderator-stats/': { request: get('/moderations/moderator-stats/'), expect: adminOnly(200) },
  'GET /moderations/stats/': { request: get('/moderations/stats/'), expect: adminOnly(200) },
  'POST /admin/vitss-export': { request: send('POST', '/admin/vitss-export'), expect: adminOnly(422) },
  'GET /events/:eventId/dashboard/': {
    request: (world) => ({ method: 'GET', url: `/events/${world.eventId}/dashboard/` }),
    expect: adminOnly(200),
  },
  // moderations (issue 14): lv2 moderated the hidden review allocated to them; moderation submission is off.
  'GET /proposal-reviews/allocated/': { request: get('/proposal-reviews/allocated/'), expect: signedIn(200) },
  'GET /proposal-reviews/allocated/count/': { request: get('/proposal-reviews/allocated/count/'), expect: signedIn(200) },
  'GET /proposal-reviews/moderated/': { request: get('/proposal-reviews/moderated/'), expect: signedIn(200) },
  'GET /proposal-reviews/moderated/count/': { request: get('/proposal-reviews/moderated/count/'), expect: signedIn(200) },
  'POST /moderations/': { request: send('POST', '/moderations/'), expect: signedInWrite(422) },
  'GET /moderations/:id/': {
    request: (world) => ({ method: 'GET', url: `/moderations/${world.moderationId}/` }),
    expect: { ...everyone(404), lv2: 200, admin: 200 },
  },
  'GET /moderations/by-review/:review_id/': {
    request: (world) => ({ method: 'GET', url: `/moderations/by-review/${world.reviewId}/` }),
    expect: { ...everyone(404), lv0: 200, lv2: 200, admin: 200 },
  },
  // Issue 28 item 3: the versions of the review's moderations; whoever may see the review gets theirs (admins all).
  'GET /moderations/by-review/:review_id/versions/': {
    request: (world) => ({ method: 'GET', url: `/moderations/by-review/${world.reviewId}/versions/` }),
    expect: signedIn(404, { lv0: 200, lv2: 200, admin: 200 }),
  },
  'PUT /moderations/:id/': { request: send('PUT', (world) => `/moderations/${world.moderationId}/`), expect: signedInWrite(422) },
  // Others learn nothing (404); the author is refused while moderation is closed, an admin because it is not theirs.
  'DELETE /moderations/:id/': {
    request: send('DELETE', (world) => `/moderations/${world.moderationId}/`),
    expect: signedInWrite(404, { lv2: 403, admin: 403 }),
  },
  // appeals (issue 28 item 2): lv0 appealed their review, the appeal is allocated to lv2
  'GET /configs/appeals/:eventId/': {
    request: (world) => ({ method: 'GET', url: `/configs/appeals/${world.eventId}/` }),
    expect: adminOnly(200),
  },
  'PUT /configs/appeals/:eventId/': { request: send('PUT', (world) => `/configs/appeals/${world.eventId}/`), expect: adminOnly(422) },
  'GET /appeals/by-review/:review_id/': {
    request: (world) => ({ method: 'GET', url: `/appeals/by-review/${world.reviewId}/` }),
    expect: signedIn(404, { lv0: 200, admin: 200 }),
  },
  'POST /appeals/': { request: send('POST', '/appeals/'), expect: signedInWrite(422) },
  'GET /appeals/': { request: (world) => ({ method: 'GET', url: `/appeals/?event_id=${world.eventId}` }), expect: adminOnly(200) },
  'GET /appeals/mine/': { request: get('/appeals/mine/'), expect: signedIn(200) },
  'GET /appeals/allocated/': { request: get('/appeals/allocated/'), expect: signedIn(200) },
  'GET /appeals/:id/': {
    request: (world) => ({ method: 'GET', url: `/appeals/${world.appealId}/` }),
    expect: signedIn(404, { lv0: 200, lv2: 200, admin: 200 }),
  },
  'PUT /appeals/:id/decision/': { request: send('PUT', (world) => `/appeals/${world.appealId}/decision/`), expect: signedInWrite(422) },
  'POST /appeals/generate-allocations': { request: send('POST', '/appeals/generate-allocations'), expect: adminOnly(422) },
  // proposals
  'GET /proposals/': { request: (world) => ({ method: 'GET', url: `/proposals/?event_id=${world.eventId}` }), expect: everyone(200) },
  'GET /proposals/allocated': { request: get('/proposals/allocated'), expect: signedIn(200) },
  // the reference API's counts (issue 17)
  'GET /proposals/count/': { request: get('/proposals/count/'), expect: everyone(200) },
  'GET /proposals/allocated/count': { request: get('/proposals/allocated/count'), expect: signedIn(200) },
  'GET /proposal-reviews/count/': { request: get('/proposal-reviews/count/'), expect: everyone(200) },
  'GET /proposal-reviews/filtered/count/': { request: get('/proposal-reviews/filtered/count/'), expect: everyone(200) },
  'GET /proposals/:id/': { request: (world) => ({ method: 'GET', url: `/proposals/${world.proposalIds[0]}/` }), expect: everyone(200) },
  'POST /proposals/import/:eventId': { request: send('POST', (world) => `/proposals/import/${world.eventId}`), expect: adminOnly(422) },
  // the web app (outside the API prefix)
  'GET /env.js': { request: () => ({ method: 'GET', url: '/env.js' }), expect: everyone(200) },
  'GET /': { request: () => ({ method: 'GET', url: '/' }), expect: everyone(200) },
  'GET /*': { request: () => ({ method: 'GET', url: '/assets/app-1.js' }), expect: everyone(200) },
};

/** Routes outside the API prefix: their requests name the whole path. */
const WEB_ROUTES = new Set(['GET /env.js', 'GET /', 'GET /*']);

/** A route's key in the matrix: method and URL as registered, without the API prefix. */
const keyOf = (method: string, url: string) => `${method} ${url.startsWith(API) ? url.slice(API.length) : url}`;

let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'cr-web-matrix-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Community Review</title>');
  writeFileSync(join(webDist, 'assets', 'app-1.js'), 'console.log(1);');
});
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

describe('authorization matrix', () => {
  const limit = '1000000';
  const ctx = useTestApp('pglite', () => ({
    WEB_DIST: webDist,
    MAIL_OUTBOX_API: 'true',
    MAIL_OUTBOX_TOKEN: 'matrix-outbox-token-0123',
    LOGIN_LIMIT_PER_ACCOUNT: limit,
    LOGIN_LIMIT_PER_ADDRESS: limit,
    RESET_LIMIT_PER_ACCOUNT: limit,
    RESET_LIMIT_PER_ADDRESS: limit,
  }));
  const world = {} as World;

  beforeAll(async () => {
    const admin = await ctx.newAdmin();
    const lv0 = await ctx.newUser();
    const lv1 = await ctx.newUser();
    const lv2 = await ctx.newUser();
    const lv2Other = await ctx.newUser();
    const inactive = await ctx.newUser({ status: AccountStatus.inactive });
    const forcedReset = await ctx.newUser({ forceReset: true });
    world.users = { admin, lv0, lv1, lv2, lv2Other, inactive, forcedReset };

    const switches = { reviewer_subscription_enabled: true, review_submission_enabled: true, review_visibility_enabled: false };
    const event = await ctx.newEvent({ admin, config: switches });
    const otherEvent = await ctx.newEvent({ admin, config: switches });
    world.eventId = event.id;
    world.otherEventId = otherEvent.id;
    world.openEventId = (await ctx.newEvent({ admin, config: switches })).id;
    const proposals = await ctx.importProposals(event, { authorOf: (index) => `id.catalyst://cardano/matrix-author-${index}` });
    world.proposalIds = proposals.map((p) => p.id);

    await ctx.newReviewer(event, { user: lv0, level: ReviewerLevel.level_0 });
    await ctx.newReviewer(event, { user: lv1, level: ReviewerLevel.level_1 });
    await ctx.newModerator(event, { user: lv2 });
    await ctx.newModerator(otherEvent, { user: lv2Other });

    world.reviewId = (await ctx.newReview(lv0, world.proposalIds[0]!, reviewFields)).row_id;
    const [moderator] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, lv2.id));
    await ctx.db.insert(moderationAllocations).values({ eventId: world.eventId, reviewId: world.reviewId, subscriptionId: moderator!.id });
    const [moderation] = await ctx.db
      .insert(moderations)
      .values({ eventId: world.eventId, reviewId: world.reviewId, subscriptionId: moderator!.id, classification: 1, rationale: 'Valid.' })
      .returning();
    world.moderationId = moderation!.id;
    const [author] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.userId, lv0.id));
    const [appeal] = await ctx.db
      .insert(appeals)
      .values({ eventId: world.eventId, reviewId: world.reviewId, subscriptionId: author!.id, rationale: 'Mine.', rankingBefore: 2 })
      .returning();
    world.appealId = appeal!.id;
    await ctx.db.insert(appealAllocations).values({ appealId: appeal!.id, subscriptionId: moderator!.id });
  });

  it('has an entry for every route the app registers, and none for a route it does not', () => {
    const registered = ctx.app.routeTable.map((route) => keyOf(route.method, route.url));
    expect(registered.length).toBeGreaterThan(40);
    expect(
      registered.filter((key) => !(key in matrix)),
      'routes without an entry in the authorization matrix',
    ).toEqual([]);
    expect(
      Object.keys(matrix).filter((key) => !registered.includes(key)),
      'entries for routes that no longer exist',
    ).toEqual([]);
  });

  it('answers every route × caller with the expected status', async () => {
    const mismatches: string[] = [];
    for (const [key, entry] of Object.entries(matrix)) {
      for (const role of ROLES) {
        const options = await entry.request(world, role, ctx);
        const url = String(options.url);
        const response = await ctx.app.inject({
          ...options,
          url: WEB_ROUTES.has(key) ? url : `${API}${url}`,
          headers: role === 'anonymous' ? {} : world.users[role].auth,
        } as InjectOptions);
        if (response.statusCode !== entry.expect[role]) {
          mismatches.push(`${key} as ${role}: ${response.statusCode} (expected ${entry.expect[role]}) ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
