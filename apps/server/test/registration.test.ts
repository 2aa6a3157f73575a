import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AccountStatus, RegistrationStatus, UserRole } from '@cr/contract/users';
import { catalystIds, outbox, users } from '../src/db/schema/index';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { PASSWORD, uniqueName } from './fixtures';

const acks = { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } };

function newUserBody(overrides: Record<string, unknown> = {}) {
  const name = uniqueName('reg');
  return {
    catalyst_id: `id.catalyst://cardano/${name}`,
    email: `${name}@example.test`,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    extra: acks,
    ...overrides,
  };
}

type Detail = { detail: { loc: (string | number)[]; msg: string; type: string }[] };

describe.each(databaseKinds)('POST users/ (registration) on %s', (kind) => {
  const ctx = useTestApp(kind, { ADMIN_CATALYST_IDS: 'id.catalyst://cardano/boss-admin, cardano/second-admin#encrypt' });
  const registerRaw = (newUser: unknown) => ctx.app.inject({ method: 'POST', url: `${API}/users/`, payload: { new_user: newUser } });
  const countRows = async () => {
    const [ids] = await ctx.db.select({ n: count() }).from(catalystIds);
    const [accounts] = await ctx.db.select({ n: count() }).from(users);
    const [mails] = await ctx.db.select({ n: count() }).from(outbox);
    return { ids: ids!.n, accounts: accounts!.n, mails: mails!.n };
  };

  it('creates an inactive account and mails an activation link (A-069, A-047)', async () => {
    const body = newUserBody();
    const response = await registerRaw(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toBe(true);

    const { id } = await ctx.userIdOf(body.email);
    const account = await ctx.accountOf(id);
    expect(account.status).toBe(AccountStatus.inactive);
    expect(account.role).toBe(UserRole.user);
    expect(account.passwordHash).not.toContain(PASSWORD);

    const mail = await ctx.lastMail(body.email);
    expect(mail?.kind).toBe('activation');
    expect(mail?.link).toMatch(/^http:\/\/app\.test\/account\/activation\?token=[\w-]{40,}$/);
    expect(mail?.textBody).toContain(mail!.link!);
    expect(mail?.htmlBody).toContain('<a href="http://app.test/account/activation?token=');
  });

  it('stores the Catalyst ID without its scheme prefix and #encrypt suffix', async () => {
    const name = uniqueName('norm');
    const body = newUserBody({ catalyst_id: `id.catalyst://cardano/${name}#encrypt` });
    expect((await registerRaw(body)).statusCode).toBe(201);
    const [row] = await ctx.db.select().from(catalystIds).where(eq(catalystIds.email, body.email));
    expect(row?.catalystId).toBe(`cardano/${name}`);
    expect(row?.rbacRegStatus).toBe(RegistrationStatus.persistent);
  });

  it('answers 409 for a Catalyst ID that is already registered, in any spelling', async () => {
    const name = uniqueName('dup');
    expect((await registerRaw(newUserBody({ catalyst_id: `cardano/${name}` }))).statusCode).toBe(201);
    const again = await registerRaw(newUserBody({ catalyst_id: `id.catalyst://cardano/${name}#encrypt` }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This Catalyst ID is already registered.' });
  });

  it('answers 409 for a taken e-mail (case-insensitive) and writes nothing', async () => {
    const first = newUserBody();
    expect((await registerRaw(first)).statusCode).toBe(201);
    const before = await countRows();
    const response = await registerRaw(newUserBody({ email: first.email.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'This e-mail address is already registered.' });
    expect(await countRows()).toEqual(before);
  });

  it('gives role 100 to a Catalyst ID listed in ADMIN_CATALYST_IDS (users/me)', async () => {
    const body = newUserBody({ catalyst_id: 'cardano/boss-admin' });
    expect((await registerRaw(body)).statusCode).toBe(201);
    const login = await ctx.login(body.catalyst_id, PASSWORD);
    const me = await ctx.app.inject({
      method: 'GET',
      url: `${API}/users/me/`,
      headers: { authorization: `Bearer ${login.json().access_token}` },
    });
    expect(me.json().extra.role).toBe(UserRole.admin);
  });

  it('applies ADMIN_CATALYST_IDS to accounts that already exist (as at server start)', async () => {
    const body = newUserBody({ catalyst_id: 'id.catalyst://cardano/second-admin' });
    expect((await registerRaw(body)).statusCode).toBe(201);
    const { id } = await ctx.userIdOf(body.email);
    await ctx.db.update(users).set({ role: UserRole.user }).where(eq(users.id, id));
    expect(await ctx.app.services.accounts.applyAdminList()).toBe(2);
    expect((await ctx.accountOf(id)).role).toBe(UserRole.admin);
  });

  describe('validation (422 with detail locations)', () => {
    const expectDetail = async (newUser: unknown, loc: (string | number)[], msg: string) => {
      const before = await countRows();
      const response = await registerRaw(newUser);
      expect(response.statusCode).toBe(422);
      const { detail } = json<Detail>(response);
      expect(detail).toContainEqual(expect.objectContaining({ loc, msg }));
      expect(await countRows()).toEqual(before);
      return detail;
    };

    it('rejects a Catalyst ID without a slash (A-063)', async () => {
      await expectDetail(
        newUserBody({ catalyst_id: 'cardano-key' }),
        ['body', 'new_user', 'catalyst_id'],
        'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
      );
    });

    it('rejects a Catalyst ID with a space (A-063)', async () => {
      await expectDetail(
        newUserBody({ catalyst_id: 'cardano/a b' }),
        ['body', 'new_user', 'catalyst_id'],
        'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
      );
    });

    it('rejects an empty Catalyst ID with only the required message (A-129)', async () => {
      const detail = await expectDetail(newUserBody({ catalyst_id: '' }), ['body', 'new_user', 'catalyst_id'], 'Catalyst id is required.');
      expect(detail).toHaveLength(1);
    });

    it('rejects an invalid e-mail address (A-130)', async () => {
      await expectDetail(newUserBody({ email: 'not-an-address' }), ['body', 'new_user', 'email'], 'Please enter a valid email address.');
    });

    it('rejects a password shorter than 8 characters (A-064)', async () => {
      await expectDetail(
        newUserBody({ password: 'Short-1', password_confirmation: 'Short-1' }),
        ['body', 'new_user', 'password'],
        'Password must be at least 8 characters long.',
      );
    });

    it('rejects a password without a number (A-065)', async () => {
      await expectDetail(
        newUserBody({ password: 'No-digits-here', password_confirmation: 'No-digits-here' }),
        ['body', 'new_user', 'password'],
        'Password must contain a number.',
      );
    });

    it('rejects a password without an uppercase letter (A-065)', async () => {
      await expectDetail(
        newUserBody({ password: 'no-upper-1', password_confirmation: 'no-upper-1' }),
        ['body', 'new_user', 'password'],
        'Password must contain an uppercase letter.',
      );
    });

    it('rejects a confirmation that differs from the password (A-066)', async () => {
      await expectDetail(
        newUserBody({ password_confirmation: 'Other-pass1' }),
        ['body', 'new_user', 'password_confirmation'],
        'Passwords do not match.',
      );
    });

    it('rejects a missing confirmation (A-066)', async () => {
      await expectDetail(
        newUserBody({ password_confirmation: undefined }),
        ['body', 'new_user', 'password_confirmation'],
        'Password confirmation is required.',
      );
    });

    it('rejects unaccepted policies (A-067)', async () => {
      const extra = { policy_acknowledgments: { privacy_policy: false, terms_and_conditions: true } };
      await expectDetail(
        newUserBody({ extra }),
        ['body', 'new_user', 'extra', 'policy_acknowledgments', 'privacy_policy'],
        'Privacy policy must be accepted.',
      );
    });

    it('rejects a body without the new_user wrapper', async () => {
      const response = await ctx.app.inject({ method: 'POST', url: `${API}/users/`, payload: newUserBody() });
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail[0]?.loc).toEqual(['body', 'new_user']);
    });

    it('reports every invalid field at once', async () => {
      const response = await registerRaw({ catalyst_id: 'x', email: 'y', password: 'z', password_confirmation: 'zzzzzzz', extra: acks });
      expect(response.statusCode).toBe(422);
      const fields = new Set(json<Detail>(response).detail.map((item) => item.loc.join('.')));
      expect(fields).toEqual(
        new Set(['body.new_user.catalyst_id', 'body.new_user.email', 'body.new_user.password', 'body.new_user.password_confirmation']),
      );
    });
  });
});
