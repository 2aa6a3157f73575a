import { appendFileSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { moderationAllocations } from '../src/db/schema/index';
import { API, useTestApp, type TestContext } from './build-test-app';
import { PASSWORD, uniqueName, type TestUser } from './fixtures';
import { LV2_FORM, VALID_NOTE, type TestEvent, type TestProposal, type TestReviewer } from './world-fixtures';

/**
 * The reference contract (issue 17): a client built from the programme's reference API (docs/reference/cat-reviews.json)
 * works against ours. For every reference operation, two requests are built from the reference's own schemas — one
 * with the required fields only, one with every field — with real ids and valid domain values from a scenario below,
 * sent to the app (under our prefix, /api/reviews) as the right caller. Each answer must be a 2xx that the
 * reference's response schema accepts, unless the operation is in the departures table of docs/api-compatibility.md:
 * a departure not in the table fails here until it is documented, and a row for an operation that now conforms
 * fails too (stale). A `paged` departure (the spec's `{data, page}` lists) still has every item of `data` checked
 * against the reference's item schema.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const reference = JSON.parse(readFileSync(resolve(root, 'docs/reference/cat-reviews.json'), 'utf8')) as ReferenceDocument;
const compatibility = readFileSync(resolve(root, 'docs/api-compatibility.md'), 'utf8');

type JsonSchema = Record<string, any>;
interface ReferenceOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
interface ReferenceDocument {
  paths: Record<string, Record<string, ReferenceOperation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = Object.entries(reference.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
);

// ---------- the departures table ----------

interface Departure {
  kind: string;
  what: string;
  reason: string;
}
/** The rows of the table under "## Departures": | `METHOD /api/path` | kind | what differs | reason |. */
function departuresOf(markdown: string): Map<string, Departure> {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Departures'));
  if (!section) throw new Error('docs/api-compatibility.md has no "## Departures" section');
  const rows = new Map<string, Departure>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const operation = /^`((?:GET|POST|PUT|DELETE|PATCH) \/api\/\S*)`$/.exec(cells[1] ?? '');
    if (!operation) continue;
    if (rows.has(operation[1]!)) throw new Error(`two rows for ${operation[1]}`);
    rows.set(operation[1]!, { kind: cells[2] ?? '', what: cells[3] ?? '', reason: cells[4] ?? '' });
  }
  return rows;
}
const departures = departuresOf(compatibility);

// ---------- requests from the reference's schemas ----------

const schemaAt = (ref: string): JsonSchema => reference.components.schemas[ref.split('/').at(-1)!]!;
const resolved = (schema: JsonSchema | undefined): JsonSchema => (schema?.$ref ? resolved(schemaAt(schema.$ref)) : (schema ?? {}));

type Mode = 'required' | 'full';
const SOME_UUID7 = '0199802c-21b4-7161-a16e-a77af492780f';

/** A value of the schema: the required properties only, or all of them; defaults, enums and formats respected. */
function exampleOf(input: JsonSchema | undefined, mode: Mode): unknown {
  const schema = resolved(input);
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (choice) return exampleOf(choice.find((option) => option.type !== 'null') ?? choice[0], mode);
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {}))
        if (mode === 'full' || required.has(name)) value[name] = exampleOf(property, mode);
      return value;
    }
    case 'array':
      return mode === 'full' && schema.items ? [exampleOf(schema.items, mode)] : [];
    case 'integer':
      return schema.minimum ?? 1;
    case 'number':
      return schema.minimum ?? 0.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      if (schema.format === 'date-time') return '2031-01-01T00:00:00Z';
      if (schema.format === 'email') return `${uniqueName('someone')}@example.test`;
      if (schema.format?.startsWith('uuid')) return SOME_UUID7;
      return 'x'.repeat(Math.max(schema.minLength ?? 4, 4));
    }
    default:
      return {};
  }
}

/** The scenario's domain values over the generated value: only where the generated value has the key. */
function overlaid(generated: unknown, values: unknown): unknown {
  if (values === undefined) return generated;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(generated) || !isObject(values)) return values;
  const result: Record<string, unknown> = { ...generated };
  for (const [key, value] of Object.entries(values)) if (key in generated) result[key] = overlaid(generated[key], value);
  return result;
}

// ---------- the world and the scenarios ----------

type Role = 'anonymous' | 'admin' | 'lv0' | 'lv1' | 'lv2';
interface World {
  admin: TestUser;
  event: TestEvent;
  /** An event whose configuration the config writes may change. */
  spareEvent: TestEvent;
  /** An event whose review outcomes exist (proposal scores need them). */
  scoredEvent: TestEvent;
  proposals: TestProposal[];
  lv0: TestReviewer;
  lv1: TestReviewer;
  lv2: TestReviewer;
  /** lv0's review of proposals[0] (allocated to lv0), moderated by lv2. */
  reviewId: number;
  moderationId: number;
  categoryDocumentId: string;
  categoryId: number;
}

/** What a scenario gives one request: the caller, path values, query values, the body's domain values. */
interface Request {
  as: Role | TestUser;
  path?: Record<string, string | number>;
  query?: Record<string, string | number | (string | number)[]>;
  body?: unknown;
}
type Scenario = (world: World, mode: Mode, ctx: TestContext) => Request | Promise<Request>;

let nextProposal = 5;
/** A proposal of the event no one has reviewed yet. */
const freshProposal = (world: World) => world.proposals[nextProposal++]!;

const reviewBody = (proposalId?: number) => ({
  ...(proposalId === undefined ? {} : { proposal_id: proposalId }),
  impact_alignment_rating_given: 4,
  impact_alignment_note: VALID_NOTE,
  feasibility_rating_given: 3,
  feasibility_note: VALID_NOTE,
  auditability_rating_given: 5,
  auditability_note: VALID_NOTE,
});

async function expectOk(response: LightMyRequestResponse | Promise<LightMyRequestResponse>, what: string) {
  const answer = await response;
  if (answer.statusCode >= 300) throw new Error(`${what}: ${answer.statusCode} ${answer.body}`);
  return answer.json();
}

/** A new review by lv1 of a fresh proposal, allocated to lv2 for moderation; its id. */
async function reviewForModeration(world: World, ctx: TestContext): Promise<number> {
  const review = await ctx.newReview(world.lv1, freshProposal(world));
  await ctx.db
    .insert(moderationAllocations)
    .values({ eventId: world.event.id, reviewId: review.row_id, subscriptionId: world.lv2.subscription.row_id });
  return review.row_id;
}

const moderationBody = (reviewId: number) => ({ review_id: reviewId, classification: 1, rationale: 'Clear and fair.' });

async function newModeration(world: World, ctx: TestContext): Promise<number> {
  const reviewId = await reviewForModeration(world, ctx);
  const created = await expectOk(
    ctx.app.inject({
      method: 'POST',
      url: `${API}/moderations/`,
      headers: world.lv2.auth,
      payload: { new_moderation: moderationBody(reviewId) },
    }),
    'moderate a review',
  );
  return created.row_id;
}

const eventId = (world: World) => ({ event: world.event.id });

const scenarios: Record<string, Scenario> = {
  // moderations
  'POST /api/moderations/': async (world, _mode, ctx) => ({
    as: 'lv2',
    body: { new_moderation: moderationBody(await reviewForModeration(world, ctx)) },
  }),
  'PUT /api/moderations/{id}/': (world) => ({
    as: 'lv2',
    path: { id: world.moderationId },
    body: { record_update: moderationBody(world.reviewId) },
  }),
  'DELETE /api/moderations/{id}/': async (world, _mode, ctx) => ({ as: 'lv2', path: { id: await newModeration(world, ctx) } }),
  'GET /api/moderations/stats/': () => ({ as: 'admin' }),
  'GET /api/moderations/moderator-stats/': () => ({ as: 'admin' }),
  'GET /api/moderations/export/csv': () => ({ as: 'admin' }),
  'GET /api/moderations/by-review/{review_id}/': (world) => ({ as: 'lv2', path: { review_id: world.reviewId } }),
  'POST /api/moderations/generate-allocations': (world) => ({
    as: 'admin',
    body: { allocation_params: { event_id: world.event.id, dry_run: true } },
  }),
  // categories and proposals
  'GET /api/categories/': (world) => ({ as: 'anonymous', query: { event_id: world.event.id } }),
  'GET /api/proposals/count/': () => ({ as: 'anonymous' }),
  'GET /api/proposals/{id}/': (world) => ({ as: 'anonymous', path: { id: world.proposals[0]!.id } }),
  'GET /api/proposals/{id}/submitted-review/': (world) => ({ as: 'lv0', path: { id: world.proposals[0]!.id } }),
  'GET /api/proposals/': () => ({ as: 'anonymous' }),
  'GET /api/proposals/allocated': () => ({ as: 'lv0' }),
  'GET /api/proposals/allocated/count': () => ({ as: 'lv0' }),
  'POST /api/proposals/import/{event}': (world) => ({ as: 'admin', path: eventId(world) }),
  'POST /api/proposals/generate-results': (world) => ({
    as: 'admin',
    body: { results_params: { event_id: world.scoredEvent.id, dry_run: true } },
  }),
  // reviews
  'POST /api/proposal-reviews/': (world) => ({ as: 'lv1', body: { new_proposal_review: reviewBody(freshProposal(world).id) } }),
  'GET /api/proposal-reviews/': () => ({ as: 'admin' }),
  'GET /api/proposal-reviews/count/': () => ({ as: 'anonymous' }),
  'GET /api/proposal-reviews/moderated/': () => ({ as: 'lv2' }),
  'GET /api/proposal-reviews/moderated/count/': () => ({ as: 'lv2' }),
  'GET /api/proposal-reviews/allocated/': () => ({ as: 'lv2' }),
  'GET /api/proposal-reviews/allocated/count/': () => ({ as: 'lv2' }),
  'GET /api/proposal-reviews/by-ids/': (world) => ({ as: 'admin', query: { ids: [world.reviewId] } }),
  'GET /api/proposal-reviews/filtered/': (world) => ({
    as: 'admin',
    query: {
      assessor: world.lv0.anonymousId,
      proposal: world.proposals[0]!.title,
      proposal_id: world.proposals[0]!.id,
      objective: world.proposals[0]!.objective_title ?? '',
      rankings_included: [0, 1],
    },
  }),
  'GET /api/proposal-reviews/filtered/count/': (world) => ({
    as: 'admin',
    query: {
      assessor: world.lv0.anonymousId,
      proposal: world.proposals[0]!.title,
      proposal_id: world.proposals[0]!.id,
      objective: world.proposals[0]!.objective_title ?? '',
      rankings_included: [0, 1],
    },
  }),
  'GET /api/proposal-reviews/{id}/': (world) => ({ as: 'lv0', path: { id: world.reviewId } }),
  'PUT /api/proposal-reviews/{id}/': (world) => ({
    as: 'lv0',
    path: { id: world.reviewId },
    body: { proposal_review_update: reviewBody() },
  }),
  'DELETE /api/proposal-reviews/{id}/': async (world, _mode, ctx) => ({
    as: 'lv1',
    path: { id: (await ctx.newReview(world.lv1, freshProposal(world))).row_id },
  }),
  'GET /api/proposal-reviews/export/csv/{event}/': (world) => ({ as: 'admin', path: eventId(world) }),
  'GET /api/proposal-reviews/export/full-csv/{event}': (world) => ({ as: 'admin', path: eventId(world) }),
  'POST /api/proposal-reviews/generate-allocations': (world) => ({
    as: 'admin',
    body: { allocation_params: { event_id: world.event.id, categories: [world.categoryId], dry_run: true } },
  }),
  'POST /api/proposal-reviews/generate-results': (world) => ({
    as: 'admin',
    body: { results_params: { event_id: world.event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, dry_run: true } },
  }),
  // accounts
  'POST /api/users/': () => {
    const catalystId = `id.catalyst://cardano/${uniqueName('contract')}`;
    return {
      as: 'anonymous',
      body: {
        new_user: {
          catalyst_id: catalystId,
          password: PASSWORD,
          password_confirmation: PASSWORD,
          extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
        },
      },
    };
  },
  'POST /api/users/token/login': async (_world, _mode, ctx) => {
    const user = await ctx.newUser();
    return { as: 'anonymous', body: { username: user.catalystId, password: user.password } };
  },
  'GET /api/users/token/refresh': async (_world, _mode, ctx) => ({ as: await ctx.newUser() }),
  'GET /api/users/me/': () => ({ as: 'lv0' }),
  'POST /api/users/password/update': async (_world, _mode, ctx) => {
    const user = await ctx.newUser();
    const next = 'Other-pass2';
    return { as: user, body: { update_user: { old_password: user.password, password: next, password_confirmation: next } } };
  },
  'POST /api/users/password/reset': async (_world, _mode, ctx) => {
    const user = await ctx.newUser();
    await expectOk(
      ctx.app.inject({
        method: 'POST',
        url: `${API}/users/password/reset-request`,
        payload: { new_user: { catalyst_id: user.catalystId } },
      }),
      'request a reset',
    );
    const token = await ctx.tokenFromMail(user.email);
    const next = 'Other-pass2';
    return {
      as: 'anonymous',
      body: { user_reset: { catalyst_id: user.catalystId, password: next, password_confirmation: next, confirmation_token: token } },
    };
  },
  'POST /api/users/activate': async (_world, _mode, ctx) => {
    const registered = await ctx.register();
    return { as: 'anonymous', body: { user_activation: { confirmation_token: await ctx.tokenFromMail(registered.email) } } };
  },
  'POST /api/users/password/reset-request': async (_world, _mode, ctx) => ({
    as: 'anonymous',
    body: { new_user: { catalyst_id: (await ctx.newUser()).catalystId } },
  }),
  'POST /api/email/send/': (world) => ({
    as: 'admin',
    body: {
      new_email: { subject: 'Round news', text: 'The round opens.', html: '<p>The round opens.</p>', recipients: [world.lv0.email] },
    },
  }),
  // configuration
  'GET /api/configs/current-event/': () => ({ as: 'anonymous' }),
  'PUT /api/configs/current-event/{event}/': (world) => ({ as: 'admin', path: eventId(world) }),
  'PUT /api/configs/reviews/{event}/': (world) => ({
    as: 'admin',
    path: { event: world.spareEvent.id },
    body: {
      record_update: {
        reviewer_subscription_starts_at: '2031-01-01T00:00:00Z',
        reviewer_subscription_ends_at: '2031-02-01T00:00:00Z',
        review_submission_starts_at: '2031-02-01T00:00:00Z',
        review_submission_ends_at: '2031-03-01T00:00:00Z',
        moderation_submission_starts_at: '2031-03-01T00:00:00Z',
        moderation_submission_ends_at: '2031-04-01T00:00:00Z',
      },
    },
  }),
  'GET /api/configs/reviews/{event}/': (world) => ({ as: 'anonymous', path: eventId(world) }),
  'GET /api/configs/reviews-level-qualifiers/{event}/': (world) => ({ as: 'admin', path: eventId(world) }),
  'PUT /api/configs/reviews-level-qualifiers/{event}/': (world) => ({ as: 'admin', path: { event: world.spareEvent.id } }),
  'GET /api/configs/allocations/{event}/': (world) => ({ as: 'admin', path: eventId(world) }),
  'POST /api/sumsub/webhook/': () => ({ as: 'anonymous' }),
  // subscriptions
  'POST /api/subscriptions/': async (world, _mode, ctx) => ({
    as: await ctx.newUser(),
    body: { new_subscription: { event_id: world.event.id, fund_rules_acceptance: true, preferred_categories: [world.categoryDocumentId] } },
  }),
  'POST /api/subscriptions/invitation': async (world, mode, ctx) => {
    const user = await ctx.newUser();
    await ctx.invite(world.event, user);
    return {
      as: user,
      body: {
        invitation_answer: {
          event_id: world.event.id,
          status: mode === 'full' ? 1 : 0,
          role: ReviewerLevel.level_2,
          acknowledge_public_contact: true,
          public_contact: LV2_FORM.public_contact,
          reward_address: LV2_FORM.reward_address,
        },
      },
    };
  },
  // Catalyst IDs
  'GET /api/catalyst-ids/me': () => ({ as: 'lv0' }),
  'POST /api/catalyst-ids/me': async (_world, _mode, ctx) => {
    const user = await ctx.newUser();
    return { as: user, body: { email: `${uniqueName('changed')}@example.test`, catalyst_id_uri: user.catalystId } };
  },
  'POST /api/catalyst-ids/verify-email': async (_world, _mode, ctx) => {
    const user = await ctx.newUser();
    const email = `${uniqueName('changed')}@example.test`;
    await expectOk(
      ctx.app.inject({
        method: 'POST',
        url: `${API}/catalyst-ids/me`,
        headers: user.auth,
        payload: { email, catalyst_id_uri: user.catalystId },
      }),
      'change the e-mail address',
    );
    return { as: 'anonymous', body: { email_verification: { confirmation_token: await ctx.tokenFromMail(email) } } };
  },
  // events
  'GET /api/events/': () => ({ as: 'anonymous' }),
  'POST /api/events/': () => ({
    as: 'admin',
    body: { new_event: { name: uniqueName('Contract round'), description: 'A round.', active: false } },
  }),
  'GET /api/events/count/': () => ({ as: 'anonymous' }),
  'GET /api/events/current/': () => ({ as: 'anonymous' }),
  'PUT /api/events/{id}/': (world) => ({
    as: 'admin',
    path: { id: world.spareEvent.id },
    body: { event_update: { name: uniqueName('Spare round'), description: 'A spare round.', active: false } },
  }),
  'POST /api/admin/vitss-export': (world) => ({
    as: 'admin',
    body: { export_config: { events_id: [world.event.id], fund_id: 15, fund_name: 'Fund 15', themes: ['Cardano'] } },
  }),
  'GET /api/healthz': () => ({ as: 'anonymous' }),
};

// ---------- validation ----------

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('uuid7', /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
ajv.addSchema({ $id: 'https://reference.test/cat-reviews.json', components: reference.components });
/** The reference's schemas refer to `#/components/...`: make them absolute so they resolve in the added document. */
const anchored = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://reference.test/cat-reviews.json#/components/'));

function successOf(operation: ReferenceOperation): { status: number; schema: JsonSchema | undefined } {
  const [status, response] = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))!;
  return { status: Number(status), schema: response.content?.['application/json']?.schema };
}

/** Why the answer does not satisfy the reference, or null when it does. `paged`: check `data` against the items. */
function problemOf(response: LightMyRequestResponse, schema: JsonSchema | undefined, paged: boolean): string | null {
  if (response.statusCode < 200 || response.statusCode >= 300) return `${response.statusCode} ${response.body.slice(0, 300)}`;
  if (!schema || Object.keys(schema).length === 0) return null;
  let body: any;
  try {
    body = response.json();
  } catch {
    return `not JSON (${response.headers['content-type']}): ${response.body.slice(0, 80)}`;
  }
  let target = schema;
  if (paged) {
    if (!body || !Array.isArray(body.data) || typeof body.page !== 'object')
      return `not a {data, page} list: ${response.body.slice(0, 120)}`;
    target = { type: 'array', items: resolved(schema).items ?? schema.items };
    body = body.data;
    if (body.length === 0) return 'the {data, page} list is empty: nothing to check';
  }
  const validate = ajv.compile(anchored(target));
  if (validate(body)) return null;
  const errors = (validate.errors ?? []).slice(0, 8).map((error) => `${error.instancePath || '/'} ${error.message}`);
  return `answer rejected by the reference schema: ${[...new Set(errors)].join('; ')}`;
}

function queryString(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : [value])
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The request a reference client sends in this mode, with the scenario's values. */
function requestOf(operation: ReferenceOperation, path: string, method: string, request: Request, world: World, mode: Mode): InjectOptions {
  const url = path.replace(/^\/api\//, `${API}/`).replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = request.path?.[name];
    if (value === undefined) throw new Error(`the scenario of ${method} ${path} gives no ${name}`);
    return encodeURIComponent(String(value));
  });
  const query: Record<string, unknown> = {};
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    if (!parameter.required && mode === 'required') continue;
    query[parameter.name] = request.query?.[parameter.name] ?? exampleOf(parameter.schema, 'full');
  }
  const as = request.as;
  const caller = typeof as === 'object' ? as : as === 'anonymous' ? undefined : world[as];
  const headers: Record<string, string> = { ...(caller?.auth ?? {}) };
  const options: InjectOptions = { method: method as 'GET', url: `${url}${queryString(query)}`, headers };
  const content = operation.requestBody?.content;
  if (content) {
    const [type, { schema }] = Object.entries(content)[0]!;
    const body = overlaid(exampleOf(schema, mode), request.body);
    headers['content-type'] = type;
    options.payload =
      type === 'application/x-www-form-urlencoded'
        ? new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)])).toString()
        : JSON.stringify(body);
  }
  return options;
}

// ---------- the test ----------

describe('a client built from the reference API works against ours (issue 17)', () => {
  const ctx = useTestApp('pglite');
  const world = {} as World;

  beforeAll(async () => {
    world.admin = await ctx.admin();
    const switches = {
      reviewer_subscription_enabled: true,
      review_submission_enabled: true,
      moderation_submission_enabled: true,
      review_visibility_enabled: true,
    };
    world.event = await ctx.newEvent({ config: switches });
    world.spareEvent = await ctx.newEvent();
    world.scoredEvent = await ctx.newEvent();
    await expectOk(
      ctx.app.inject({
        method: 'POST',
        url: `${API}/proposal-reviews/generate-results`,
        headers: world.admin.auth,
        payload: { results_params: { event_id: world.scoredEvent.id, validity_threshold: 0.5, acceptance_threshold: 0.5, dry_run: false } },
      }),
      'generate the review outcomes',
    );
    world.proposals = await ctx.importProposals(world.event);
    world.lv0 = await ctx.newReviewer(world.event, { level: ReviewerLevel.level_0 });
    world.lv1 = await ctx.newReviewer(world.event, { level: ReviewerLevel.level_1 });
    world.lv2 = await ctx.newModerator(world.event);
    for (const proposal of world.proposals.slice(0, 3)) await ctx.newAllocation(world.lv0, proposal);
    world.reviewId = (await ctx.newReview(world.lv0, world.proposals[0]!)).row_id;
    await ctx.db
      .insert(moderationAllocations)
      .values({ eventId: world.event.id, reviewId: world.reviewId, subscriptionId: world.lv2.subscription.row_id });
    world.moderationId = (
      await expectOk(
        ctx.app.inject({
          method: 'POST',
          url: `${API}/moderations/`,
          headers: world.lv2.auth,
          payload: { new_moderation: moderationBody(world.reviewId) },
        }),
        'moderate the review',
      )
    ).row_id;
    const categories = await expectOk(
      ctx.app.inject({ method: 'GET', url: `${API}/categories/?event_id=${world.event.id}` }),
      'categories',
    );
    world.categoryId = categories[0].row_id ?? categories[0].id;
    world.categoryDocumentId = typeof categories[0].id === 'string' ? categories[0].id : SOME_UUID7;
  }, 120_000);

  it('covers every one of the reference’s 63 operations with a scenario', () => {
    expect(operations).toHaveLength(63);
    expect(operations.map((operation) => operation.key).filter((key) => !scenarios[key])).toEqual([]);
    expect(Object.keys(scenarios).filter((key) => !operations.some((operation) => operation.key === key))).toEqual([]);
  });

  it('documents each departure with what differs and why, for reference operations only', () => {
    for (const [key, departure] of departures) {
      expect(
        operations.some((operation) => operation.key === key),
        `${key} is not a reference operation`,
      ).toBe(true);
      expect(departure.what.length, `${key}: what differs`).toBeGreaterThan(10);
      expect(departure.reason.length, `${key}: the reason`).toBeGreaterThan(10);
    }
  });

  it('refuses an unknown query parameter with a 422 naming it, and takes the reference’s names', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: `${API}/proposals/?size=5&frobnicate=1` });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toEqual([
      expect.objectContaining({ loc: ['query', 'frobnicate'], msg: "Unknown query parameter 'frobnicate'." }),
    ]);
    const none = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/?a=1`, headers: world.lv0.auth });
    expect(none.statusCode).toBe(422);
    const count = await ctx.app.inject({
      method: 'GET',
      url: `${API}/proposal-reviews/filtered/count/?assessor=${world.lv0.anonymousId}&rankings_included=0`,
      headers: world.admin.auth,
    });
    expect(count.json()).toBeGreaterThanOrEqual(1);
  });

  it('says what a wrong type should have been, not that it is required (issue 17 item 5)', async () => {
    const token = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/activate`,
      payload: { user_activation: { confirmation_token: 12345 } },
    });
    expect(token.statusCode).toBe(422);
    expect(token.json().detail).toEqual([expect.objectContaining({ msg: 'Confirmation token must be text.' })]);
    const event = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/`,
      headers: world.lv0.auth,
      payload: { new_subscription: { fund_rules_acceptance: true, preferred_categories: [], event_id: 'abc' } },
    });
    expect(event.json().detail).toEqual([expect.objectContaining({ msg: 'Event id must be an id: a whole number from 1 to 2147483647.' })]);
  });

  it.each(operations.map((operation) => [operation.key, operation] as const))('%s', async (key, { method, path, operation }) => {
    const departure = departures.get(key);
    const paged = departure?.kind === 'paged';
    const { schema } = successOf(operation);
    const problems: string[] = [];
    for (const mode of ['required', 'full'] as const) {
      const request = await scenarios[key]!(world, mode, ctx);
      const response = await ctx.app.inject(requestOf(operation, path, method, request, world, mode));
      expect(response.statusCode, `${key} (${mode}) must never fail with a 5xx: ${response.body.slice(0, 300)}`).toBeLessThan(500);
      const problem = problemOf(response, schema, paged);
      if (problem) problems.push(`${mode}: ${problem}`);
    }
    if (process.env.REFERENCE_CONTRACT_REPORT)
      appendFileSync(process.env.REFERENCE_CONTRACT_REPORT, `${key}\n${problems.map((p) => `  ${p}\n`).join('')}`);
    if (!departure || paged) {
      expect(problems, `${key} departs from the reference: fix it, or document it in docs/api-compatibility.md`).toEqual([]);
    } else {
      expect(problems, `${key} now conforms: remove its row from docs/api-compatibility.md`).not.toEqual([]);
    }
  });
});
