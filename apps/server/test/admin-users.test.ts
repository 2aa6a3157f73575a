import { beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, UserRole, type AdminUserRow } from '@cr/contract/users';
import { normalizeCatalystId } from '@cr/contract/rules';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { detailAt, type Detail } from './event-fixtures';
import { uniqueName, type TestUser } from './fixtures';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };
const UNKNOWN_USER = { message: 'The user you are looking for does not exist or an error occurred.' };

describe.each(databaseKinds)('admin/users routes on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    user = await ctx.newUser();
  });

  const get = (url: string, who?: TestUser) => ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: who ? who.auth : {} });
  const list = async (query: string) => {
    const response = await get(`admin/users?${query}`, admin);
    expect(response.statusCode).toBe(200);
    return response.json() as { data: AdminUserRow[]; page: { total: number; size: number; page: number } };
  };

  describe('GET admin/users (B-033, B-035)', () => {
    it('pages by 25 by default, newest first, with page.total (B-035)', async () => {
      const body = await list('');
      expect(body.page).toMatchObject({ size: 25, page: 0 });
      expect(body.page.total).toBeGreaterThanOrEqual(2);
      const ids = body.data.map((row) => row.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('counts a new account at once, although the totals are kept between requests (B-035)', async () => {
      const before = (await list('')).page.total;
      // Every test account has an e-mail address: a search for its @ matches them all.
      const searched = (await list('search=%40')).page.total;
      await ctx.newUser();
      expect((await list('')).page.total).toBe(before + 1);
      expect((await list('search=%40')).page.total).toBe(searched + 1);
    });

    it('answers the Users tab columns for each account (B-033)', async () => {
      const newest = await ctx.newUser();
      const [row] = (await list('size=1')).data;
      expect(row).toEqual({
        id: newest.id,
        catalyst_id: `id.catalyst://${normalizeCatalystId(newest.catalystId).id}`,
        username: null,
        email: newest.email,
        registered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        status: AccountStatus.active,
        role: UserRole.user,
      });
    });

    it("answers the username of a Catalyst ID's `name@` part, in the list and the user info (B-033, issue 12 item 12)", async () => {
      const name = uniqueName('alice');
      await ctx.register({ catalyst_id: `id.catalyst://${name}@cardano/${uniqueName('key')}` });
      const [row] = (await list('size=1')).data;
      expect(row!.username).toBe(name);
      const info = await get(`admin/users/${row!.id}`, admin);
      expect(info.json()).toMatchObject({ username: name, catalyst_id: { username: name } });
    });

    it('pages with size and page', async () => {
      const a = await ctx.newUser();
      const b = await ctx.newUser();
      const c = await ctx.newUser();
      const first = await list('size=2&page=0');
      expect(first.data.map((row) => row.id)).toEqual([c.id, b.id]);
      expect(first.page).toMatchObject({ size: 2, page: 0 });
      expect((await list('size=2&page=1')).data[0]!.id).toBe(a.id);
    });

    it('filters by part of a Catalyst ID or e-mail, ignoring case', async () => {
      const tag = uniqueName('Findme');
      const found = await ctx.register({ catalyst_id: `id.catalyst://cardano/${tag}`, email: `${uniqueName('other')}@example.test` });
      const byMail = await ctx.register({ email: `${tag}@mail.example.test` });
      const byId = await list(`search=${encodeURIComponent(tag.toUpperCase())}`);
      expect(byId.data.map((row) => row.email).sort()).toEqual([found.email, byMail.email].sort());
      expect(byId.page.total).toBe(2);
      expect((await list(`search=${encodeURIComponent(byMail.email)}`)).data.map((row) => row.email)).toEqual([byMail.email]);
    });

    // Found by the after-write browser test under load (issue 26): the list shows `id.catalyst://…`, and a search for
    // that text found nothing, the scheme being stored apart.
    it('finds a user by the Catalyst ID as the list shows it, with its scheme', async () => {
      const tag = uniqueName('Shown');
      const user = await ctx.register({ catalyst_id: `id.catalyst://cardano/${tag}` });
      for (const search of [`id.catalyst://cardano/${tag}`, `ID.CATALYST://cardano/${tag}`, `  id.catalyst://cardano/${tag}`]) {
        const found = await list(`search=${encodeURIComponent(search)}`);
        expect(found.data.map((row) => row.email)).toEqual([user.email]);
        expect(found.page.total).toBe(1);
      }
    });

    it('treats % and _ in the search as plain characters and a blank search as none', async () => {
      expect((await list('search=%25')).data).toEqual([]);
      expect((await list('search=___')).data).toEqual([]);
      const all = await list('');
      expect((await list('search=%20%20')).page.total).toBe(all.page.total);
    });

    it.each([
      ['size=0', ['query', 'size']],
      ['size=101', ['query', 'size']],
      ['page=-1', ['query', 'page']],
      [`search=${'s'.repeat(201)}`, ['query', 'search']],
    ])('answers 422 for %s', async (query, loc) => {
      const response = await get(`admin/users?${query}`, admin);
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc)));
    });

    it('answers 401 anonymous and 403 non-admin', async () => {
      expect((await get('admin/users')).statusCode).toBe(401);
      const forbidden = await get('admin/users', user);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
    });
  });

  describe('GET admin/users/:id (B-034)', () => {
    const info = async (id: string, who: TestUser = admin) => get(`admin/users/${encodeURIComponent(id)}`, who);

    it("answers a user's info by the displayed Catalyst ID (URL-encoded, with the id.catalyst:// prefix)", async () => {
      const target = await ctx.newUser();
      const stored = normalizeCatalystId(target.catalystId).id;
      const response = await info(`id.catalyst://${stored}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        email: target.email,
        username: null,
        catalyst_id: { id: stored, email: target.email, status: AccountStatus.active },
        extra: { role: UserRole.user, force_reset: false, subscriptions: [], registered_at: expect.any(String) },
      });
    });

    it('finds the same user without the prefix, with the #encrypt suffix, and by numeric id', async () => {
      const target = await ctx.newUser();
      const stored = normalizeCatalystId(target.catalystId).id;
      const expected = (await info(`id.catalyst://${stored}`)).json();
      for (const id of [stored, `${stored}#encrypt`, String(target.id)]) {
        const response = await info(id);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual(expected);
      }
    });

    it('finds a user whose Catalyst ID is 500 characters long, URL-encoded in the path (issue 19)', async () => {
      const unique = uniqueName('long');
      const catalystId = `id.catalyst://cardano/${unique}-${'x'.repeat(500 - 'id.catalyst://cardano/'.length - unique.length - 1)}`;
      expect(catalystId).toHaveLength(500);
      const registered = await ctx.register({ catalyst_id: catalystId, email: `${unique}@example.test` });
      const response = await info(registered.catalystId);
      expect(response.statusCode).toBe(200);
      expect(response.json().email).toBe(registered.email);
    });

    it('answers an admin about any account, whatever its status or role', async () => {
      const banned = await ctx.newUser();
      await ctx.setStatus(banned.id, AccountStatus.banned);
      expect((await info(String(banned.id))).json().catalyst_id.status).toBe(AccountStatus.banned);
      expect((await info(String(admin.id))).json().extra.role).toBe(UserRole.admin);
    });

    it.each([
      ['an unknown Catalyst ID', () => `id.catalyst://cardano/${uniqueName('nobody')}`],
      ['an unknown Catalyst ID without prefix', () => `cardano/${uniqueName('nobody')}`],
      ['an unknown numeric id', () => '99999999'],
      ['a numeric id beyond the integer range (not 500)', () => '99999999999'],
      ['text that is no Catalyst ID', () => 'not-an-id'],
    ])('answers 404 for %s', async (_label, id) => {
      const response = await info(id());
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(UNKNOWN_USER);
    });

    it('answers 401 anonymous and 403 non-admin (even about themselves)', async () => {
      const id = encodeURIComponent(user.catalystId);
      expect((await get(`admin/users/${id}`)).statusCode).toBe(401);
      const forbidden = await get(`admin/users/${id}`, user);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
    });
  });
});
