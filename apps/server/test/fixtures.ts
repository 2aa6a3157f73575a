import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AccountStatus, UserRole } from '@cr/contract/users';
import type { Db } from '../src/db/client';
import { catalystIds, outbox, users } from '../src/db/schema/index';

const API = '/api/reviews';
let counter = 0;

export const PASSWORD = 'Valid-pass1';

export interface TestUser {
  id: number;
  catalystId: string;
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
}

/** `ctx.newUser()`-style helpers (immich's medium tests): each test stays a few lines. */
export function createFixtures(app: FastifyInstance, db: Db) {
  const register = async (overrides: Partial<{ catalyst_id: string; email: string; password: string }> = {}) => {
    counter += 1;
    const unique = `${process.pid}-${Date.now()}-${counter}`;
    const body = {
      catalyst_id: `id.catalyst://cardano/user-${unique}`,
      email: `user-${unique}@example.test`,
      password: PASSWORD,
      ...overrides,
    };
    const response = await app.inject({
      method: 'POST',
      url: `${API}/users/`,
      payload: {
        new_user: {
          ...body,
          password_confirmation: body.password,
          extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
        },
      },
    });
    if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
    return { catalystId: body.catalyst_id, email: body.email, password: body.password };
  };

  const login = async (catalystId: string, password: string) => {
    const response = await app.inject({
      method: 'POST',
      url: `${API}/users/token/login`,
      payload: `username=${encodeURIComponent(catalystId)}&password=${encodeURIComponent(password)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    return response;
  };

  const lastMail = async (email: string) => {
    const [row] = await db.select().from(outbox).where(eq(sql`lower(${outbox.recipient})`, email.toLowerCase())).orderBy(desc(outbox.id)).limit(1);
    return row;
  };

  const tokenFromMail = async (email: string) => {
    const mail = await lastMail(email);
    if (!mail?.link) throw new Error(`no mail for ${email}`);
    return new URL(mail.link).searchParams.get('token')!;
  };

  const userIdOf = async (email: string) => {
    const [row] = await db
      .select({ id: users.id, ref: catalystIds.id })
      .from(users)
      .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
      .where(eq(sql`lower(${catalystIds.email})`, email.toLowerCase()));
    return row!;
  };

  /** A registered, activated (or otherwise set) user, logged in. */
  const newUser = async (options: { status?: number; role?: number; forceReset?: boolean } = {}): Promise<TestUser> => {
    const registered = await register();
    const { id, ref } = await userIdOf(registered.email);
    await db.update(catalystIds).set({ status: options.status ?? AccountStatus.active }).where(eq(catalystIds.id, ref));
    await db.update(users).set({ role: options.role ?? UserRole.user, forceReset: options.forceReset ?? false }).where(eq(users.id, id));
    const response = await login(registered.catalystId, registered.password);
    const token = (response.json() as { access_token: string }).access_token;
    return { id, ...registered, token, auth: { authorization: `Bearer ${token}` } };
  };

  const newAdmin = () => newUser({ role: UserRole.admin });

  return { register, login, lastMail, tokenFromMail, userIdOf, newUser, newAdmin, db };
}
export type Fixtures = ReturnType<typeof createFixtures>;
