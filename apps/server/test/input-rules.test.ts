import { beforeAll, describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';

/**
 * The request text rule (issue 13 item 1): a NUL character or an unpaired surrogate in any string of any request —
 * body, query or path — is a 422 naming the field, never a 500 from the database or a silent U+FFFD.
 */

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const TEXT_MESSAGE = 'contains a character that is not allowed (a NUL character or an unpaired surrogate).';
const note = 'A fair and careful note. '.repeat(12);
const acks = { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } };
const reviewFields = {
  impact_alignment_rating_given: 3,
  impact_alignment_note: note,
  feasibility_rating_given: 3,
  feasibility_note: note,
  auditability_rating_given: 3,
  auditability_note: note,
};

type Caller = 'anonymous' | 'user' | 'admin';
interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  url: (bad: string) => string;
  body?: (bad: string) => unknown;
  form?: (bad: string) => string;
  caller: Caller;
  loc: (string | number)[];
  label: string;
}

const q = encodeURIComponent;

/** Every endpoint the probe found answering 500 (issue 13 item 1), with the field it should name. */
const cases: Case[] = [
  {
    name: 'GET proposals/?title',
    method: 'GET',
    url: (bad) => `proposals/?title=${q(bad)}`,
    caller: 'anonymous',
    loc: ['query', 'title'],
    label: 'Title',
  },
  {
    name: 'POST users/token/login (username, form body)',
    method: 'POST',
    url: () => 'users/token/login',
    form: (bad) => `username=${q(`cardano/${bad}`)}&password=whatever`,
    caller: 'anonymous',
    loc: ['body', 'username'],
    label: 'Username',
  },
  {
    name: 'POST users/ (register)',
    method: 'POST',
    url: () => 'users/',
    body: (bad) => ({
      new_user: {
        catalyst_id: `cardano/${bad}`,
        email: 'x@example.test',
        password: 'Valid-pass1',
        password_confirmation: 'Valid-pass1',
        extra: acks,
      },
    }),
    caller: 'anonymous',
    loc: ['body', 'new_user', 'catalyst_id'],
    label: 'Catalyst id',
  },
  {
    name: 'POST users/password/reset-request',
    method: 'POST',
    url: () => 'users/password/reset-request',
    body: (bad) => ({ new_user: { catalyst_id: `cardano/${bad}` } }),
    caller: 'anonymous',
    loc: ['body', 'new_user', 'catalyst_id'],
    label: 'Catalyst id',
  },
  {
    name: 'GET proposal-reviews/?proposal',
    method: 'GET',
    url: (bad) => `proposal-reviews/?proposal=${q(bad)}`,
    caller: 'anonymous',
    loc: ['query', 'proposal'],
    label: 'Proposal',
  },
  {
    name: 'GET proposal-reviews/?assessors (repeated)',
    method: 'GET',
    url: (bad) => `proposal-reviews/?assessors=x&assessors=${q(bad)}`,
    caller: 'anonymous',
    loc: ['query', 'assessors', 1],
    label: 'Assessors',
  },
  {
    name: 'PUT proposal-reviews/{id}/ (review update)',
    method: 'PUT',
    url: () => 'proposal-reviews/1/',
    body: (bad) => ({ proposal_review_update: { ...reviewFields, row_id: 1, feasibility_note: note + bad } }),
    caller: 'user',
    loc: ['body', 'proposal_review_update', 'feasibility_note'],
    label: 'Feasibility note',
  },
  {
    name: 'POST events/ (event name)',
    method: 'POST',
    url: () => 'events/',
    body: (bad) => ({ new_event: { name: `Fund ${bad}`, description: 'A round.' } }),
    caller: 'admin',
    loc: ['body', 'new_event', 'name'],
    label: 'Name',
  },
  {
    name: 'PUT configs/status/ (status message)',
    method: 'PUT',
    url: () => 'configs/status/',
    body: (bad) => ({ record_update: { messages: [{ message: `Hello ${bad}`, severity: 'info' }] } }),
    caller: 'admin',
    loc: ['body', 'record_update', 'messages', 0, 'message'],
    label: 'Message',
  },
  {
    name: 'PUT configs/reviews/{id}/ (a setting)',
    method: 'PUT',
    url: () => 'configs/reviews/1/',
    body: (bad) => ({ record_update: { review_submission_starts_at: bad } }),
    caller: 'admin',
    loc: ['body', 'record_update', 'review_submission_starts_at'],
    label: 'Review submission starts at',
  },
  {
    name: 'POST subscriptions/invite',
    method: 'POST',
    url: () => 'subscriptions/invite',
    body: (bad) => ({ invitation: { event_id: 1, catalyst_id: `cardano/${bad}` } }),
    caller: 'admin',
    loc: ['body', 'invitation', 'catalyst_id'],
    label: 'Catalyst id',
  },
  {
    name: 'GET admin/users?search',
    method: 'GET',
    url: (bad) => `admin/users?search=${q(bad)}`,
    caller: 'admin',
    loc: ['query', 'search'],
    label: 'Search',
  },
  {
    name: 'GET admin/users/{id}',
    method: 'GET',
    url: (bad) => `admin/users/${q(`cardano/${bad}`)}`,
    caller: 'admin',
    loc: ['path', 'id'],
    label: 'Id',
  },
];

describe.each(databaseKinds)('the request text rule on %s (issue 13 item 1)', (kind) => {
  const ctx = useTestApp(kind);
  const callers = {} as Record<Caller, TestUser | undefined>;
  beforeAll(async () => {
    callers.anonymous = undefined;
    callers.user = await ctx.newUser();
    callers.admin = await ctx.newAdmin();
  });

  const send = (item: Case, bad: string) => {
    const caller = callers[item.caller];
    const headers: Record<string, string> = caller ? { ...caller.auth } : {};
    if (item.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    return ctx.app.inject({
      method: item.method,
      url: `${API}/${item.url(bad)}`,
      headers,
      ...(item.form ? { payload: item.form(bad) } : item.body ? { payload: item.body(bad) as object } : {}),
    });
  };

  // Lone surrogates cannot travel in a URL (percent-encoding is UTF-8), so they are tried in JSON bodies only.
  const rows = cases.flatMap((item) => [
    [`${item.name}: NUL`, item, NUL] as const,
    ...(item.body ? [[`${item.name}: lone surrogate`, item, LONE] as const] : []),
  ]);

  it.each(rows)('%s → 422 naming the field', async (_title, item, bad) => {
    const response = await send(item, bad);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toEqual([{ loc: item.loc, msg: `${item.label} ${TEXT_MESSAGE}`, type: 'text' }]);
  });

  it('holds object keys to the rule too', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/configs/reviews/1/`,
      headers: callers.admin!.auth,
      payload: { record_update: { ['review\u0000_enabled']: true } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([{ loc: ['body', 'record_update'], msg: `A field name ${TEXT_MESSAGE}`, type: 'text' }]);
  });

  it.each([
    ['proposals/?title=%ED%A0%80', ['query', 'title'], 'Title'],
    ['proposal-reviews/?assessors=%FF', ['query', 'assessors'], 'Assessors'],
    ['proposals/?x%FF=1', ['query'], 'A field name'],
  ])('refuses %s, a percent-encoding that is not UTF-8 (never read as U+FFFD)', async (url, loc, label) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: callers.admin!.auth });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([{ loc, msg: `${label} ${TEXT_MESSAGE}`, type: 'text' }]);
  });

  it('answers a path whose percent-encoding is not UTF-8 with 400 (the router refuses it)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/admin/users/%ED%A0%80`, headers: callers.admin!.auth });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('accepts text with paired surrogates (an emoji) and other control characters', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/proposals/?title=${q('😀\u0001\t')}` });
    expect(response.statusCode).toBe(200);
  });

  it('still answers 401 before 422 to an anonymous caller of a protected route', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/admin/users?search=%00` });
    expect(response.statusCode).toBe(401);
  });
});

const ID_MESSAGE = 'must be an id: a whole number from 1 to 2147483647.';
const TOO_BIG = 2_147_483_648;

/** Every id in every request follows the one bounded id rule (issue 13 item 4): beyond the column's range is a 422. */
describe.each(databaseKinds)('the bounded id rule on %s (issue 13 item 4)', (kind) => {
  const ctx = useTestApp(kind);
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    user = await ctx.newUser();
    admin = await ctx.newAdmin();
  });

  const bodies: [string, 'POST' | 'PUT', string, () => TestUser, unknown, (string | number)[]][] = [
    [
      'subscriptions/ event_id',
      'POST',
      'subscriptions/',
      () => user,
      { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: TOO_BIG } },
      ['body', 'new_subscription', 'event_id'],
    ],
    [
      'subscriptions/ preferred_categories',
      'POST',
      'subscriptions/',
      () => user,
      { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: 1, preferred_categories: [TOO_BIG] } },
      ['body', 'new_subscription', 'preferred_categories', 0],
    ],
    [
      'subscriptions/invitation event_id',
      'POST',
      'subscriptions/invitation',
      () => user,
      { invitation_answer: { event_id: TOO_BIG, status: 0 } },
      ['body', 'invitation_answer', 'event_id'],
    ],
    [
      'subscriptions/invite event_id',
      'POST',
      'subscriptions/invite',
      () => admin,
      { invitation: { event_id: TOO_BIG, catalyst_id: 'cardano/someone' } },
      ['body', 'invitation', 'event_id'],
    ],
    [
      'proposal-reviews/ proposal_id',
      'POST',
      'proposal-reviews/',
      () => user,
      { new_proposal_review: { ...reviewFields, proposal_id: TOO_BIG } },
      ['body', 'new_proposal_review', 'proposal_id'],
    ],
    [
      'proposal-reviews/generate-allocations event_id',
      'POST',
      'proposal-reviews/generate-allocations',
      () => admin,
      { allocation_params: { event_id: TOO_BIG, allocation_seed: 1, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 } },
      ['body', 'allocation_params', 'event_id'],
    ],
    [
      'configs/status/ message row_id',
      'PUT',
      'configs/status/',
      () => admin,
      { record_update: { messages: [{ row_id: TOO_BIG, message: 'Hello', severity: 'info' }] } },
      ['body', 'record_update', 'messages', 0, 'row_id'],
    ],
  ];

  it.each(bodies)('%s beyond the range → 422', async (_name, method, url, caller, payload, loc) => {
    const response = await ctx.app.inject({ method, url: `${API}/${url}`, headers: caller().auth, payload: payload as object });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg: expect.stringContaining(ID_MESSAGE) }));
  });

  it.each([
    ['events/2147483648/', ['path', 'eventId']],
    ['proposals/2147483648/', ['path', 'id']],
    ['proposal-reviews/2147483648/', ['path', 'id']],
    ['proposal-reviews/?event_id=2147483648', ['query', 'event_id']],
    ['proposal-reviews/by-ids/?ids=1&ids=2147483648', ['query', 'ids', 1]],
    ['categories/?event_id=-1', ['query', 'event_id']],
  ])('GET %s → 422', async (url, loc) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/${url}` });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg: expect.stringContaining(ID_MESSAGE) }));
  });

  it.each(['events/', 'proposals/', 'proposal-reviews/'])('GET %s with a page beyond any offset → 422, not 500', async (url) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/${url}?page=99999999999&size=100` });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toContainEqual(expect.objectContaining({ loc: ['query', 'page'] }));
  });

  it('a page beyond any offset on admin/users → 422, not 500', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/admin/users?page=99999999999`, headers: admin.auth });
    expect(response.statusCode, response.body).toBe(422);
  });
});

/** JSON bodies are typed strictly; prototype keys and deep nesting get their own message (issue 13 item 12). */
describe.each(databaseKinds)('strict JSON bodies on %s (issue 13 item 12)', (kind) => {
  const ctx = useTestApp(kind);
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    user = await ctx.newUser();
    admin = await ctx.newAdmin();
  });

  it.each([true, '1', [1], 1.5, 0, -1, null])('proposal_id %j in a review is refused, never read as an id', async (proposalId) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: user.auth,
      payload: { new_proposal_review: { ...reviewFields, proposal_id: proposalId } },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail).toEqual([
      { loc: ['body', 'new_proposal_review', 'proposal_id'], msg: `Proposal id ${ID_MESSAGE}`, type: expect.any(String) },
    ]);
  });

  it.each([
    ['subscriptions/', { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: '1' } }],
    ['subscriptions/invitation', { invitation_answer: { event_id: true, status: 0 } }],
  ])('%s refuses an event_id that is not a number', async (url, payload) => {
    const response = await ctx.app.inject({ method: 'POST', url: `${API}/${url}`, headers: user.auth, payload });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().detail[0].msg).toBe(`Event id ${ID_MESSAGE}`);
  });

  it('refuses an allocation whose event_id or categories are text', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/generate-allocations`,
      headers: admin.auth,
      payload: {
        allocation_params: { event_id: '1', allocation_seed: 1, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1, categories: ['2'] },
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail.map((item: { loc: unknown }) => item.loc)).toEqual([
      ['body', 'allocation_params', 'event_id'],
      ['body', 'allocation_params', 'categories', 0],
    ]);
  });

  it('still reads ids in paths and queries from their text', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/proposal-reviews/?event_id=1&page=0&size=5` })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/events/999999/` })).statusCode).toBe(404);
  });

  it.each([
    ['"__proto__"', '{"new_event": {"__proto__": {"admin": true}, "name": "x", "description": "y"}}'],
    [
      '"constructor" holding "prototype"',
      '{"new_event": {"constructor": {"prototype": {"admin": true}}, "name": "x", "description": "y"}}',
    ],
  ])('answers a body with a %s key with what is wrong, not "not valid JSON"', async (_name, payload) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/events/`,
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request body may not use the key "__proto__", nor a "constructor" key holding "prototype".',
    });
  });

  it('answers deeply nested JSON with what is wrong, not "not valid JSON"', async () => {
    const depth = 10_000;
    const payload = `{"new_event": {"name": "x", "description": "y", "extra": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/events/`,
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([
      {
        loc: ['body', 'new_event', 'extra', ...Array.from({ length: 62 }, () => 0)],
        msg: 'The request is nested too deeply: at most 64 levels.',
        type: 'depth',
      },
    ]);
  });
});
