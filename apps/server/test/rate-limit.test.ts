import { like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { uniqueName } from './fixtures';
import { loginFrom } from './login-requests';
import { backoffSeconds } from '../src/modules/accounts/guess-guard';

const TOO_MANY = { message: 'Too many attempts. Please wait a few minutes and try again.' };

function expectTooMany(response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(TOO_MANY);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

const resetRequestFrom = (ctx: ReturnType<typeof useTestApp>, catalystId: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${API}/users/password/reset-request`,
    payload: { new_user: { catalyst_id: catalystId } },
    remoteAddress,
  });

// Issue 13 item 2: guesses from elsewhere must not lock the owner out.
describe.each(databaseKinds)('login lock-out on %s (default limits)', (kind) => {
  const ctx = useTestApp(kind);

  it('lets the owner in from an address without failures after many wrong guesses from other addresses', async () => {
    const user = await ctx.register();
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', `10.0.0.${attempt}`)).statusCode).toBe(401);
    }
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.0.100')).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('login limit per account and address on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '3' });

  it('answers 429 with a message and Retry-After after 3 failures on one account from one address, and only there', async () => {
    const user = await ctx.register();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.1.1')).statusCode).toBe(401);
    }
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.1.1'));
    // The spelling of the Catalyst ID does not open a new counter.
    expectTooMany(await loginFrom(ctx, user.catalystId.replace('id.catalyst://', ''), user.password, '10.0.1.1'));
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.2')).statusCode).toBe(200);
  });

  it('leaves other accounts alone', async () => {
    const user = await ctx.register();
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.1')).statusCode).toBe(200);
  });

  it('forgets the failures of an address on an account once it logs in', async () => {
    const user = await ctx.register();
    for (let attempt = 0; attempt < 2; attempt += 1) await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.1.20');
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.20')).statusCode).toBe(200);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.1.20')).statusCode).toBe(401);
    }
  });

  it('lets the address try again once the window has passed', async () => {
    const user = await ctx.register();
    for (let attempt = 0; attempt < 3; attempt += 1) await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.1.30');
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.1.30'));
    await ctx.db.update(rateLimits).set({ windowStartedAt: new Date(Date.now() - 16 * 60 * 1000) });
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.30')).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('login back-off per account on %s', (kind) => {
  const ctx = useTestApp(kind, {
    LOGIN_LIMIT_PER_ACCOUNT: '2',
    LOGIN_BACKOFF_SECONDS: '600',
    LOGIN_BACKOFF_MAX_SECONDS: '3600',
    RATE_LIMIT_WINDOW_SECONDS: '86400',
  });
  const retryAfter = (response: { headers: Record<string, unknown> }) => Number(response.headers['retry-after']);

  it('backs off exponentially for the addresses that failed, and still checks the password from a fresh address', async () => {
    const user = await ctx.register();
    expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.4.1')).statusCode).toBe(401);
    expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.4.1')).statusCode).toBe(401);
    // Two failures: the account backs off 600 s for the address that failed, even with the right password.
    const first = await loginFrom(ctx, user.catalystId, user.password, '10.0.4.1');
    expect(first.statusCode).toBe(429);
    expect(first.json()).toEqual(TOO_MANY);
    expect(retryAfter(first)).toBeGreaterThan(0);
    expect(retryAfter(first)).toBeLessThanOrEqual(600);
    // An address without failures gets its password checked: right lets in, wrong counts and doubles the back-off.
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.4.2')).statusCode).toBe(200);
    expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.4.3')).statusCode).toBe(401);
    const second = await loginFrom(ctx, user.catalystId, user.password, '10.0.4.3');
    expect(second.statusCode).toBe(429);
    expect(retryAfter(second)).toBeGreaterThan(600);
    expect(retryAfter(second)).toBeLessThanOrEqual(1200);
    // Once the back-off has passed, the address that failed may try again.
    await ctx.db
      .update(rateLimits)
      .set({ windowStartedAt: new Date(Date.now() - 1201 * 1000) })
      .where(like(rateLimits.key, 'login:account:%'));
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.4.1')).statusCode).toBe(200);
  });
});

// Issue 13 item 7: the old password on a password change is throttled like a login.
describe.each(databaseKinds)('old-password guessing on users/password/update on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '3' });
  const update = (user: { auth: { authorization: string } }, oldPassword: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/users/password/update`,
      headers: user.auth,
      payload: { update_user: { old_password: oldPassword, password: 'Newer-pass2', password_confirmation: 'Newer-pass2' } },
      remoteAddress,
    });

  it('answers 429 after 3 wrong old passwords from one address, even for the right one, and lets another address try', async () => {
    const user = await ctx.newUser();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await update(user, 'Wrong-old-1', '10.0.5.1')).statusCode).toBe(400);
    }
    expectTooMany(await update(user, user.password, '10.0.5.1'));
    expect((await update(user, user.password, '10.0.5.2')).statusCode).toBe(200);
  });

  it('keeps its counters apart from the login ones', async () => {
    const user = await ctx.newUser();
    for (let attempt = 0; attempt < 3; attempt += 1) await update(user, 'Wrong-old-1', '10.0.5.3');
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.5.3')).statusCode).toBe(200);
  });
});

// Issue 13 item 5: sign-up and the e-mail change say whether a Catalyst ID or an e-mail is taken; enumeration is slow.
describe.each(databaseKinds)('sign-up rate limit per address on %s', (kind) => {
  const ctx = useTestApp(kind, { REGISTER_LIMIT_PER_ADDRESS: '3' });
  const signUpFrom = (catalystId: string, remoteAddress: string) => {
    const name = uniqueName('signup');
    return ctx.app.inject({
      method: 'POST',
      url: `${API}/users/`,
      payload: {
        new_user: {
          catalyst_id: catalystId,
          email: `${name}@example.test`,
          password: 'Valid-pass1',
          password_confirmation: 'Valid-pass1',
          extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
        },
      },
      remoteAddress,
    });
  };

  it('answers 429 after 3 sign-ups from one address, taken Catalyst IDs included, and keeps the 409 message', async () => {
    const taken = `id.catalyst://cardano/${uniqueName('taken')}`;
    expect((await signUpFrom(taken, '10.0.6.1')).statusCode).toBe(201);
    expect((await signUpFrom(`cardano/${uniqueName('new')}`, '10.0.6.1')).statusCode).toBe(201);
    const conflict = await signUpFrom(taken, '10.0.6.1');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: 'This Catalyst ID is already registered.' });
    expectTooMany(await signUpFrom(taken, '10.0.6.1'));
    expectTooMany(await signUpFrom(`cardano/${uniqueName('new')}`, '10.0.6.1'));
    expect((await signUpFrom(`cardano/${uniqueName('new')}`, '10.0.6.2')).statusCode).toBe(201);
  });
});

describe.each(databaseKinds)('e-mail change rate limits on %s', (kind) => {
  const ctx = useTestApp(kind, { EMAIL_CHANGE_LIMIT_PER_ACCOUNT: '2', EMAIL_CHANGE_LIMIT_PER_ADDRESS: '3' });
  const changeFrom = (user: { auth: { authorization: string } }, email: string, remoteAddress: string) =>
    ctx.app.inject({ method: 'POST', url: `${API}/catalyst-ids/me`, headers: user.auth, payload: { email }, remoteAddress });

  it('answers 429 after 2 changes on one account, from any address', async () => {
    const user = await ctx.newUser();
    expect((await changeFrom(user, `${uniqueName('mail')}@example.test`, '10.0.7.1')).statusCode).toBe(200);
    expect((await changeFrom(user, `${uniqueName('mail')}@example.test`, '10.0.7.2')).statusCode).toBe(200);
    expectTooMany(await changeFrom(user, `${uniqueName('mail')}@example.test`, '10.0.7.3'));
  });

  it('answers 429 after 3 changes from one address, taken addresses included, and keeps the 409 message', async () => {
    const [first, second, third, other] = [await ctx.newUser(), await ctx.newUser(), await ctx.newUser(), await ctx.newUser()];
    expect((await changeFrom(first, `${uniqueName('mail')}@example.test`, '10.0.7.10')).statusCode).toBe(200);
    expect((await changeFrom(second, `${uniqueName('mail')}@example.test`, '10.0.7.10')).statusCode).toBe(200);
    const conflict = await changeFrom(third, other.email, '10.0.7.10');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: 'This e-mail address is already registered.' });
    expectTooMany(await changeFrom(third, other.email, '10.0.7.10'));
    expect((await changeFrom(third, `${uniqueName('mail')}@example.test`, '10.0.7.11')).statusCode).toBe(200);
  });
});

describe('back-off length', () => {
  const limits = { perAddress: 100, perAccountAddress: 5, backoffAfter: 10, backoffSeconds: 1, backoffMaxSeconds: 900 };
  it.each([
    [9, 0],
    [10, 1],
    [11, 2],
    [15, 32],
    [20, 900],
    [1000, 900],
  ])('after %i failures is %i s', (failures, seconds) => {
    expect(backoffSeconds(failures, limits)).toBe(seconds);
  });
});

describe.each(databaseKinds)('login rate limit per address on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '3' });

  it('answers 429 after 3 attempts from one address, whatever the account', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await loginFrom(ctx, `cardano/${uniqueName('guess')}`, 'Wrong-pass1', '10.0.2.1');
      expect(response.statusCode).toBe(401);
    }
    const user = await ctx.register();
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.2.1'));
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.2.2')).statusCode).toBe(200);
  });

  it('does not count successful logins against the address', async () => {
    const user = await ctx.register();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.2.3')).statusCode).toBe(200);
    }
  });
});

describe.each(databaseKinds)('password reset request rate limits on %s', (kind) => {
  const ctx = useTestApp(kind, { RESET_LIMIT_PER_ACCOUNT: '2', RESET_LIMIT_PER_ADDRESS: '4' });

  it('answers 429 after 2 requests for one account', async () => {
    const user = await ctx.register();
    expect((await resetRequestFrom(ctx, user.catalystId, '10.0.3.1')).statusCode).toBe(201);
    expect((await resetRequestFrom(ctx, user.catalystId, '10.0.3.2')).statusCode).toBe(201);
    expectTooMany(await resetRequestFrom(ctx, user.catalystId, '10.0.3.3'));
  });

  it('limits an unknown Catalyst ID the same way, so the limit tells nothing about accounts', async () => {
    const unknown = `cardano/${uniqueName('nobody')}`;
    expect((await resetRequestFrom(ctx, unknown, '10.0.3.11')).statusCode).toBe(201);
    expect((await resetRequestFrom(ctx, unknown, '10.0.3.12')).statusCode).toBe(201);
    expectTooMany(await resetRequestFrom(ctx, unknown, '10.0.3.13'));
  });

  it('answers 429 after 4 requests from one address', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await resetRequestFrom(ctx, `cardano/${uniqueName('any')}`, '10.0.3.20')).statusCode).toBe(201);
    }
    expectTooMany(await resetRequestFrom(ctx, `cardano/${uniqueName('any')}`, '10.0.3.20'));
  });
});

/**
 * Issue 45 item 6: a reset request's answer must not tell whether the account exists. At every count, up to past the
 * per-account limit, a known and an unknown Catalyst ID get the same status, the same body and the same headers
 * (Retry-After within a second: the two windows start a moment apart).
 */
describe.each(databaseKinds)('password reset requests answer alike for known and unknown accounts on %s (issue 45 item 6)', (kind) => {
  describe('default limits (429 on the sixth request for one account)', () => {
    const ctx = useTestApp(kind, { RESET_LIMIT_PER_ACCOUNT: undefined, RESET_LIMIT_PER_ADDRESS: undefined });
    it('gives identical answers at every count, one address each', async () => {
      const user = await ctx.register();
      const unknown = `cardano/${uniqueName('nobody')}`;
      const known: Answer[] = [];
      const nobody: Answer[] = [];
      for (let count = 1; count <= 8; count += 1) {
        known.push(answerOf(await resetRequestFrom(ctx, user.catalystId, '10.0.45.1')));
        nobody.push(answerOf(await resetRequestFrom(ctx, unknown, '10.0.45.2')));
      }
      expect(known.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
      expectAlike(known, nobody);
    });
  });

  describe('a small per-address limit, both asked from one address in turn', () => {
    const ctx = useTestApp(kind, { RESET_LIMIT_PER_ACCOUNT: '3', RESET_LIMIT_PER_ADDRESS: '9' });
    it('gives identical answers at every count, whichever limit refuses', async () => {
      const user = await ctx.register();
      const unknown = `cardano/${uniqueName('nobody')}`;
      const known: Answer[] = [];
      const nobody: Answer[] = [];
      for (let count = 1; count <= 6; count += 1) {
        known.push(answerOf(await resetRequestFrom(ctx, user.catalystId, '10.0.45.3')));
        nobody.push(answerOf(await resetRequestFrom(ctx, unknown, '10.0.45.3')));
      }
      expect(known.map((answer) => answer.status)).toEqual([201, 201, 201, 429, 429, 429]);
      expectAlike(known, nobody);
    });
  });
});

interface Answer {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

function answerOf(response: { statusCode: number; body: string; headers: Record<string, unknown> }): Answer {
  const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
  return { status: response.statusCode, body: response.body, headers };
}

function expectAlike(known: Answer[], unknown: Answer[]) {
  known.forEach((answer, i) => {
    const other = unknown[i]!;
    const count = `request ${i + 1}`;
    expect({ count, status: other.status, body: other.body }).toEqual({ count, status: answer.status, body: answer.body });
    const { 'retry-after': retryAfter, ...rest } = answer.headers;
    const { 'retry-after': otherRetryAfter, ...otherRest } = other.headers;
    expect({ count, ...otherRest }).toEqual({ count, ...rest });
    expect(otherRetryAfter === undefined).toBe(retryAfter === undefined);
    if (retryAfter !== undefined) expect(Math.abs(Number(otherRetryAfter) - Number(retryAfter))).toBeLessThanOrEqual(1);
  });
}
