import { beforeAll, describe, expect, it } from 'vitest';
import { signPayload, type digestAlgorithms } from '../src/adapters/verification';
import { loadConfig, ConfigError } from '../src/config';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { QUALIFIER, type TestEvent } from './world-fixtures';

const SECRET = 'webhook-secret-webhook-secret-webhook-secret';
const PROVIDER = {
  VERIFICATION_PROVIDER: 'provider',
  VERIFICATION_URL: 'https://verify.example/start',
  VERIFICATION_WEBHOOK_SECRET: SECRET,
};
const { never: NEVER, always: ALWAYS } = QUALIFIER;

const refOf = (link: string) => new URL(link).searchParams.get('ref')!;

describe('verification configuration', () => {
  it('needs the provider URL and a webhook secret of 32 characters or more', () => {
    expect(() => loadConfig({ VERIFICATION_PROVIDER: 'provider' })).toThrow(
      /VERIFICATION_URL: required[\s\S]*VERIFICATION_WEBHOOK_SECRET: required/,
    );
    expect(() => loadConfig({ ...PROVIDER, VERIFICATION_WEBHOOK_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ VERIFICATION_PROVIDER: 'sumsub' })).toThrow(/VERIFICATION_PROVIDER/);
    expect(loadConfig(PROVIDER).VERIFICATION_PROVIDER).toBe('provider');
  });
});

describe.each(databaseKinds)('verification provider and its webhook on %s', (kind) => {
  const ctx = useTestApp(kind, PROVIDER);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  /** An event open for subscription where newcomers are LV0 (or LV2 with `lv2`). */
  const openEvent = (lv2 = NEVER) => ctx.newEvent({ qualifiers: { lv1: NEVER, lv2 } });
  const subscribe = (user: TestUser, event: TestEvent) => ctx.subscribe(user, event);
  const me = async (user: TestUser) => (await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth })).json();

  /** What the provider sends: a signed JSON body (a wrong secret makes a forged call). */
  function webhook(body: unknown, options: { secret?: string; algorithm?: keyof typeof digestAlgorithms; digest?: string | null } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const algorithm = options.algorithm ?? 'HMAC_SHA256_HEX';
    const digest = options.digest === undefined ? signPayload(options.secret ?? SECRET, raw, algorithm) : options.digest;
    return ctx.app.inject({
      method: 'POST',
      url: `${API}/sumsub/webhook/`,
      headers: {
        'content-type': 'application/json',
        'x-payload-digest-alg': algorithm,
        ...(digest === null ? {} : { 'x-payload-digest': digest }),
      },
      payload: raw,
    });
  }
  const reviewed = (ref: string, answer: 'GREEN' | 'RED') => ({
    type: 'applicantReviewed',
    externalUserId: ref,
    reviewResult: { reviewAnswer: answer },
  });

  it('a new subscription waits for identity verification, with the link to follow (C-013, C-029)', async () => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    expect(subscription).toMatchObject({ role: 0, status: 0 });
    expect(subscription.extra.sumsub_link).toMatch(/^https:\/\/verify\.example\/start\?level=identity&ref=[0-9a-f]{32}$/);
  });

  it('an approval signed with the secret activates the subscription; a repeat changes nothing more', async () => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    const response = await webhook(reviewed(refOf(subscription.extra.sumsub_link), 'GREEN'));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ applied: true });
    expect((await me(user)).extra.subscriptions[0]).toMatchObject({ row_id: subscription.row_id, status: 1 });
    expect((await webhook(reviewed(refOf(subscription.extra.sumsub_link), 'GREEN'))).statusCode).toBe(201);
    expect((await me(user)).extra.subscriptions[0].status).toBe(1);
  });

  it.each(['HMAC_SHA1_HEX', 'HMAC_SHA512_HEX'] as const)('accepts a body signed with %s', async (algorithm) => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    expect((await webhook(reviewed(refOf(subscription.extra.sumsub_link), 'GREEN'), { algorithm })).statusCode).toBe(201);
    expect((await me(user)).extra.subscriptions[0].status).toBe(1);
  });

  it('a rejection excludes the subscription', async () => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    expect((await webhook(reviewed(refOf(subscription.extra.sumsub_link), 'RED'))).statusCode).toBe(201);
    expect((await me(user)).extra.subscriptions[0].status).toBe(2);
  });

  it('a bad, missing or foreign signature is refused with 401 and changes nothing', async () => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    const body = reviewed(refOf(subscription.extra.sumsub_link), 'GREEN');
    const forged = await webhook(body, { secret: 'another-secret-another-secret-another' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ message: 'The webhook signature is missing or wrong.' });
    expect((await webhook(body, { digest: null })).statusCode).toBe(401);
    expect((await webhook(body, { digest: 'not-hex' })).statusCode).toBe(401);
    // The signature of another body does not carry over.
    expect((await webhook(body, { digest: signPayload(SECRET, JSON.stringify({ ...body, type: 'applicantPending' })) })).statusCode).toBe(
      401,
    );
    const unknownAlgorithm = await ctx.app.inject({
      method: 'POST',
      url: `${API}/sumsub/webhook/`,
      headers: {
        'content-type': 'application/json',
        'x-payload-digest-alg': 'MD5',
        'x-payload-digest': signPayload(SECRET, JSON.stringify(body)),
      },
      payload: JSON.stringify(body),
    });
    expect(unknownAlgorithm.statusCode).toBe(401);
    // An inherited property name is not an algorithm either (it used to reach createHmac and answer 500).
    const inherited = await ctx.app.inject({
      method: 'POST',
      url: `${API}/sumsub/webhook/`,
      headers: { 'content-type': 'application/json', 'x-payload-digest-alg': 'toString', 'x-payload-digest': 'abcdef' },
      payload: JSON.stringify(body),
    });
    expect(inherited.statusCode).toBe(401);
    expect((await me(user)).extra.subscriptions[0].status).toBe(0);
  });

  it('acknowledges events it does not act on and references it does not know; refuses a signed body that is not an event', async () => {
    expect((await webhook({ type: 'applicantWorkflowCompleted', externalUserId: 'abc' })).json()).toEqual({ applied: false });
    expect((await webhook(reviewed('0123456789abcdef0123456789abcdef', 'GREEN'))).json()).toEqual({ applied: false });
    const notJson = await webhook('{not json');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ message: 'The webhook body is not a verification event.' });
    expect((await webhook({ type: 'applicantReviewed' })).statusCode).toBe(400);
  });

  it('an accepted LV2 invitation still needs identity verification and starts due diligence (C-017, C-030)', async () => {
    const event = await openEvent(ALWAYS);
    const user = await ctx.newUser();
    const [invited] = (await subscribe(user, event)).json();
    expect(invited).toMatchObject({ role: 2, status: 3, extra: { sumsub_link: null } });
    const answer = await ctx.answerInvitation(user, event, true);
    expect(answer.statusCode).toBe(200);
    const [lv2] = answer.json();
    expect(lv2).toMatchObject({ role: 2, status: 0 });
    expect(lv2.extra.sumsub_link).toMatch(/level=identity/);

    const info = await me(user);
    expect(info.extra.due_diligence.status).toBe(1);
    expect(info.extra.due_diligence.url).toMatch(/^https:\/\/verify\.example\/start\?level=due_diligence&ref=/);
    const ddRef = refOf(info.extra.due_diligence.url);
    await webhook({ type: 'applicantPending', externalUserId: ddRef });
    expect((await me(user)).extra.due_diligence.status).toBe(2);
    await webhook(reviewed(ddRef, 'GREEN'));
    expect((await me(user)).extra.due_diligence.status).toBe(3);
    // A late 'pending' does not undo the approval.
    await webhook({ type: 'applicantPending', externalUserId: ddRef });
    expect((await me(user)).extra.due_diligence.status).toBe(3);
    await webhook(reviewed(refOf(lv2.extra.sumsub_link), 'GREEN'));
    expect((await me(user)).extra.subscriptions[0]).toMatchObject({ role: 2, status: 1 });
  });

  it('a declined invitation makes a lower-level subscription that needs verification, and no due diligence', async () => {
    const event = await openEvent(ALWAYS);
    const user = await ctx.newUser();
    await subscribe(user, event);
    const answer = await ctx.answerInvitation(user, event, false);
    const lower = answer.json().find((subscription: { role: number }) => subscription.role === 0);
    expect(lower).toMatchObject({ status: 0 });
    expect(lower.extra.sumsub_link).toMatch(/level=identity/);
    expect((await me(user)).extra.due_diligence).toEqual({ status: 0, url: null });
  });

  it('records what a webhook changed in the audit log', async () => {
    const event = await openEvent();
    const user = await ctx.newUser();
    const [subscription] = (await subscribe(user, event)).json();
    await webhook(reviewed(refOf(subscription.extra.sumsub_link), 'GREEN'));
    const audit = await ctx.app.inject({ method: 'GET', url: `${API}/admin/audit/?event_id=${event.row_id}`, headers: admin.auth });
    expect(audit.json().data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'subscription.verification', before: { status: 0 }, after: { status: 1 } }),
      ]),
    );
  });
});

describe('verification off (the default)', () => {
  const ctx = useTestApp();
  it('answers 404 on the webhook and keeps due diligence unknown', async () => {
    const body = JSON.stringify({ type: 'applicantReviewed', externalUserId: 'x', reviewResult: { reviewAnswer: 'GREEN' } });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/sumsub/webhook/`,
      headers: { 'content-type': 'application/json', 'x-payload-digest': signPayload(SECRET, body) },
      payload: body,
    });
    expect(response.statusCode).toBe(404);
    const user = await ctx.newUser();
    const info = (await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth })).json();
    expect(info.extra.due_diligence).toEqual({ status: 0, url: null });
  });
});
