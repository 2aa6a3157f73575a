// The realistic mix of issue 18 item 2 in its own process: `node mix-load.mjs @file` with {base (…/api/reviews),
// seconds, thinkMs, thinkSpreadMs, eventId, proposalIds, categoryIds, words, proposalPages, reviewPages, exportEvery (s), users: [{kind:
// 'reviewer' | 'moderator' | 'admin', token, allocations? (proposal ids allocated and not yet reviewed), reviews? (own
// review ids), moderate? (review ids allocated for moderation, not yet moderated), moderations? ([{id, review_id}] own)}]}.
// Each user loops until the time is up: a think time (uniform in [thinkMs − thinkSpreadMs, thinkMs + thinkSpreadMs);
// thinkSpreadMs defaults to thinkMs), then one action picked by weight for its kind; reviewers browse and filter
// proposals and reviews, read pages, submit reviews on their allocations and edit their reviews; moderators read their lists and save (create or edit) moderations on their allocations; the admin
// reads the dashboard, stats and users and exports a CSV every `exportEvery` seconds. Every edit writes a marker
// (`mix-<user>-<n> `) at the start of a note or rationale so that the bench can check afterwards that the last
// acknowledged one is stored. With warmupSeconds, the load runs that long first, untimed (its errors still count). Prints JSON: {labels: {label: {latencies, errors, statuses}}, firstErrors, writes:
// {reviewCreates, reviewEdits, moderationCreates, moderationEdits}, seconds}.
import { readFileSync } from 'node:fs';
import http from 'node:http';

const argument = process.argv[2];
const settings = JSON.parse(argument.startsWith('@') ? readFileSync(argument.slice(1), 'utf8') : argument);
const {
  base,
  seconds,
  warmupSeconds = 0,
  thinkMs,
  thinkSpreadMs = thinkMs,
  eventId,
  proposalIds,
  categoryIds,
  words,
  proposalPages,
  reviewPages,
  exportEvery,
  users,
} = settings;
const agent = new http.Agent({ keepAlive: true, maxSockets: users.length + 4 });
const labels = {};
const firstErrors = [];
const writes = { reviewCreates: [], reviewEdits: [], moderationCreates: [], moderationEdits: [] };
// A warm-up (warmupSeconds) runs the same load first; only what starts after it is timed. Its writes are checked too.
const warmupStarted = performance.now();
const started = warmupStarted + warmupSeconds * 1000;
const end = started + seconds * 1000;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const below = (n) => Math.floor(Math.random() * Math.max(1, n));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const NOTE = 'The proposal explains the problem well, the milestones are concrete and the budget is itemised by role. '.repeat(3);

function request(method, path, token, body) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) };
    const call = http.request(`${base}/${path}`, { method, agent, headers }, (response) => {
      const chunks = [];
      let bytes = 0;
      // Exports are streamed: count their bytes, keep only small answers.
      response.on('data', (chunk) => {
        bytes += chunk.length;
        if (bytes < 1_000_000) chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8'), bytes }));
      response.on('error', () => resolve({ status: 0, text: 'response error', bytes }));
    });
    call.on('error', (error) => resolve({ status: 0, text: String(error), bytes: 0 }));
    call.end(payload);
  });
}

/** One timed request under `label`; answers the response, or undefined when it failed (counted as an error). */
async function timed(label, method, path, token, body) {
  const entry = (labels[label] ??= { latencies: [], starts: [], errors: 0, statuses: {} });
  const at = performance.now();
  const response = await request(method, path, token, body);
  const timedPart = at >= started;
  if (timedPart) entry.statuses[response.status] = (entry.statuses[response.status] ?? 0) + 1;
  if (response.status >= 200 && response.status < 300) {
    if (timedPart) {
      entry.latencies.push(performance.now() - at);
      entry.starts.push(at - started);
    }
    return response;
  }
  entry.errors += 1;
  if (firstErrors.length < 20) firstErrors.push({ label, path, status: response.status, text: response.text.slice(0, 300) });
  return undefined;
}

const reviewBody = (marker, n) => ({
  impact_alignment_rating_given: 1 + (n % 5),
  impact_alignment_note: `${marker} ${NOTE}`,
  feasibility_rating_given: 1 + ((n + 1) % 5),
  feasibility_note: NOTE,
  auditability_rating_given: 1 + ((n + 2) % 5),
  auditability_note: NOTE,
});

function reviewsFilter() {
  const page = below(reviewPages);
  return pick([
    [`GET reviews (no filter)`, 'GET', `proposal-reviews/filtered?size=25&page=${page}`],
    [`GET reviews (event)`, 'GET', `proposal-reviews/filtered?size=25&page=${page}&event_id=${eventId}`],
    [`GET reviews (rankings)`, 'GET', `proposal-reviews/filtered?size=25&page=${below(10)}&rankings=${1 + below(3)}`],
    [`GET reviews (proposal)`, 'GET', `proposal-reviews/filtered?size=25&page=0&proposal_id=${pick(proposalIds)}`],
    [`GET reviews (title)`, 'GET', `proposal-reviews/filtered?size=25&page=0&proposal=${pick(words)}`],
    [`GET reviews (objective)`, 'GET', `proposal-reviews/filtered?size=25&page=${below(5)}&objective=${pick(categoryIds)}`],
  ]);
}

/** Weighted actions per kind: [weight, action(user, n)]. */
const actions = {
  reviewer: [
    [18, (u) => timed('GET proposals (page)', 'GET', `proposals/?size=25&page=${below(proposalPages)}`, u.token)],
    [8, (u) => timed('GET proposals (title)', 'GET', `proposals/?size=25&page=0&title=${pick(words)}`, u.token)],
    [5, (u) => timed('GET proposals (category)', 'GET', `proposals/?size=25&page=${below(5)}&category=${pick(categoryIds)}`, u.token)],
    [12, (u) => timed('GET proposal', 'GET', `proposals/${pick(proposalIds)}/`, u.token)],
    [15, (u) => timed(...reviewsFilter(), u.token)],
    [5, (u) => timed('GET reviews (my reviews)', 'GET', 'proposal-reviews/filtered?size=25&page=0&my_reviews=true', u.token)],
    [6, (u) => (u.reviews.length ? timed('GET review', 'GET', `proposal-reviews/${pick(u.reviews)}/`, u.token) : undefined)],
    [4, (u) => timed('GET users/me', 'GET', 'users/me/', u.token)],
    [3, (u) => timed('GET events/current', 'GET', 'events/current/', u.token)],
    [3, (u) => timed('GET configs/reviews', 'GET', `configs/reviews/${eventId}/`, u.token)],
    [6, (u) => timed('GET proposals/allocated', 'GET', 'proposals/allocated?size=25&page=0', u.token)],
    [4, (u) => timed('GET submitted-review', 'GET', `proposals/${pick(u.reviewed)}/submitted-review/`, u.token)],
    [4, createReview],
    [8, editReview],
  ],
  moderator: [
    [25, (u) => timed('GET allocated (moderator)', 'GET', `proposal-reviews/allocated/?size=25&page=${below(u.pages)}`, u.token)],
    [5, (u) => timed('GET allocated count', 'GET', 'proposal-reviews/allocated/count/', u.token)],
    [10, (u) => timed('GET moderated (moderator)', 'GET', 'proposal-reviews/moderated/?size=25&page=0', u.token)],
    [10, (u) => timed('GET review', 'GET', `proposal-reviews/${pick(u.allReviews)}/`, u.token)],
    [10, (u) => timed('GET moderations by review', 'GET', `moderations/by-review/${pick(u.allReviews)}/`, u.token)],
    [5, (u) => timed('GET users/me', 'GET', 'users/me/', u.token)],
    [12, createModeration],
    [12, editModeration],
  ],
  admin: [
    [30, (u) => timed('GET dashboard', 'GET', `events/${eventId}/dashboard/`, u.token)],
    [10, (u) => timed('GET moderation stats', 'GET', `moderations/stats/?event_id=${eventId}`, u.token)],
    [20, (u) => timed('GET admin/users', 'GET', `admin/users?size=25&page=${below(20)}`, u.token)],
    [20, (u) => timed('GET proposals (page)', 'GET', `proposals/?size=25&page=${below(proposalPages)}`, u.token)],
    [20, (u) => timed(...reviewsFilter(), u.token)],
  ],
};

async function createReview(user) {
  const proposal = user.allocations.shift();
  if (proposal === undefined) return editReview(user);
  const response = await timed('POST review', 'POST', 'proposal-reviews/', user.token, {
    new_proposal_review: { proposal_id: proposal, ...reviewBody(`mix-${user.index}-new`, user.n) },
  });
  if (response) {
    const rowId = JSON.parse(response.text).row_id;
    writes.reviewCreates.push({ row_id: rowId, proposal_id: proposal, subscription_id: user.subscriptionId });
    user.reviews.push(rowId);
    user.reviewed.push(proposal);
  }
}

async function editReview(user) {
  if (!user.reviews.length) return undefined;
  const rowId = pick(user.reviews);
  const marker = `mix-${user.index}-${user.n}`;
  const response = await timed('PUT review', 'PUT', `proposal-reviews/${rowId}/`, user.token, {
    proposal_review_update: { row_id: rowId, ...reviewBody(marker, user.n) },
  });
  writes.reviewEdits.push({ row_id: rowId, marker, acked: Boolean(response) });
}

async function createModeration(user) {
  const reviewId = user.moderate.shift();
  if (reviewId === undefined) return editModeration(user);
  const response = await timed('POST moderation', 'POST', 'moderations/', user.token, {
    new_moderation: { review_id: reviewId, classification: user.n % 3 === 0 ? 0 : 1, rationale: `mix-${user.index}-new checked.` },
  });
  if (response) {
    const id = JSON.parse(response.text).row_id;
    writes.moderationCreates.push({ id, review_id: reviewId, subscription_id: user.subscriptionId });
    user.moderations.push({ id, review_id: reviewId });
  }
}

async function editModeration(user) {
  if (!user.moderations.length) return undefined;
  const { id, review_id } = pick(user.moderations);
  const marker = `mix-${user.index}-${user.n}`;
  const response = await timed('PUT moderation', 'PUT', `moderations/${id}/`, user.token, {
    record_update: { review_id, classification: user.n % 2, rationale: `${marker} checked again.` },
  });
  writes.moderationEdits.push({ id, marker, acked: Boolean(response) });
}

async function exportCsv(user, n) {
  const [label, path] =
    n % 2 === 0
      ? ['GET export: reviews CSV', `proposal-reviews/export/csv/${eventId}/`]
      : ['GET export: moderations CSV', `moderations/export/csv?event_id=${eventId}`];
  await timed(label, 'GET', path, user.token);
}

async function run(user, index) {
  Object.assign(user, { index, n: 0, reviews: user.reviews ?? [], reviewed: user.reviewed ?? [], allocations: user.allocations ?? [] });
  user.moderations ??= [];
  user.moderate ??= [];
  user.allReviews = [...user.moderate, ...user.moderations.map((m) => m.review_id)];
  if (user.allReviews.length === 0) user.allReviews = [pick(user.reviews.length ? user.reviews : [1])];
  if (user.reviewed.length === 0) user.reviewed = [pick(proposalIds)];
  const list = actions[user.kind];
  const total = list.reduce((sum, [weight]) => sum + weight, 0);
  let exports = 0;
  let nextExport = warmupStarted + (exportEvery * 1000) / 2;
  // Users start spread over one think time, as they would arrive.
  await sleep(Math.random() * thinkMs);
  while (performance.now() < end) {
    user.n += 1;
    if (user.kind === 'admin' && performance.now() >= nextExport) {
      await exportCsv(user, exports);
      exports += 1;
      nextExport = performance.now() + exportEvery * 1000;
    } else {
      let r = Math.random() * total;
      const [, action] = list.find(([weight]) => (r -= weight) < 0) ?? list[0];
      await action(user);
    }
    if (thinkMs > 0) await sleep(thinkMs - thinkSpreadMs + Math.random() * 2 * thinkSpreadMs);
  }
}

await Promise.all(users.map((user, i) => run(user, i)));
agent.destroy();
process.stdout.write(JSON.stringify({ labels, firstErrors, writes, seconds: (performance.now() - started) / 1000 }));
