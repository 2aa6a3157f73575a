import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AccountStatus, UserRole } from '@cr/contract/users';
import type { Db } from '../src/db/client';
import { catalystIds, oneTimeTokens, outbox, users, type TokenPurpose } from '../src/db/schema/index';

const API = '/api/reviews';
export const REFRESH_COOKIE = 'cr_refresh';
let counter = 0;

/** The refresh token a response set in its `cr_refresh` cookie (undefined when it set none or cleared it). */
export function refreshCookieOf(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
  return cookie?.value ? cookie.value : undefined;
}

/** A unique suffix for Catalyst IDs and e-mail addresses made up by a test. */
export function uniqueName(prefix = 'x'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export const PASSWORD = 'Valid-pass1';

export interface TestUser {
  id: number;
  catalystId: string;
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
  /** The refresh cookie of the login that made `token`. */
  refreshToken: string;
}

/** `ctx.newUser()`-style helpers (immich's medium tests): each test stays a few lines. */
export function createFixtures(app: FastifyInstance, db: Db) {
  /** The registration form's body: a unique Catalyst ID and address, the password twice, the policies accepted. */
  const registration = (overrides: Partial<{ catalyst_id: string; email: string; password: string }> = {}) => {
    const unique = uniqueName('user');
    const body = {
      catalyst_id: `id.catalyst://cardano/${unique}`,
      email: `${unique}@example.test`,
      password: PASSWORD,
      ...overrides,
    };
    return {
      ...body,
      password_confirmation: body.password,
      extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
    };
  };

  /** `POST users/` with `registration(overrides)`; the raw response (for tests of registration itself). */
  const registerResponse = (overrides: Partial<{ catalyst_id: string; email: string; password: string }> = {}) =>
    app.inject({ method: 'POST', url: `${API}/users/`, payload: { new_user: registration(overrides) } });

  const register = async (overrides: Partial<{ catalyst_id: string; email: string; password: string }> = {}) => {
    const body = registration(overrides);
    const response = await app.inject({ method: 'POST', url: `${API}/users/`, payload: { new_user: body } });
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
    // Some mails are written after the answer (the password reset's, issue 26 item 6).
    await app.services.afterResponse.settled();
    const [row] = await db
      .select()
      .from(outbox)
      .where(eq(sql`lower(${outbox.recipient})`, email.toLowerCase()))
      .orderBy(desc(outbox.id))
      .limit(1);
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

  const refresh = (refreshToken: string | undefined) =>
    app.inject({ method: 'GET', url: `${API}/users/token/refresh`, cookies: refreshToken ? { [REFRESH_COOKIE]: refreshToken } : {} });

  /** Makes every unused one-time token of a user and purpose expire, as if its lifetime had passed. */
  const expireTokensOf = async (userId: number, purpose: TokenPurpose) => {
    await db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose)));
  };

  const setStatus = async (userId: number, status: number) => {
    const [row] = await db.select({ ref: users.catalystIdRef }).from(users).where(eq(users.id, userId));
    await db.update(catalystIds).set({ status }).where(eq(catalystIds.id, row!.ref));
  };

  const accountOf = async (userId: number) => {
    const [row] = await db
      .select({
        status: catalystIds.status,
        email: catalystIds.email,
        emailVerifiedAt: catalystIds.emailVerifiedAt,
        role: users.role,
        forceReset: users.forceReset,
        passwordHash: users.passwordHash,
      })
      .from(users)
      .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
      .where(eq(users.id, userId));
    return row!;
  };

  /** A registered, activated (or otherwise set) user, logged in. */
  const newUser = async (options: { status?: number; role?: number; forceReset?: boolean } = {}): Promise<TestUser> => {
    const registered = await register();
    const { id, ref } = await userIdOf(registered.email);
    await db
      .update(catalystIds)
      .set({ status: options.status ?? AccountStatus.active })
      .where(eq(catalystIds.id, ref));
    await db
      .update(users)
      .set({ role: options.role ?? UserRole.user, forceReset: options.forceReset ?? false })
      .where(eq(users.id, id));
    const response = await login(registered.catalystId, registered.password);
    const token = (response.json() as { access_token: string }).access_token;
    return { id, ...registered, token, auth: { authorization: `Bearer ${token}` }, refreshToken: refreshCookieOf(response)! };
  };

  const newAdmin = () => newUser({ role: UserRole.admin });

  return {
    registration,
    registerResponse,
    register,
    login,
    lastMail,
    tokenFromMail,
    userIdOf,
    newUser,
    newAdmin,
    refresh,
    expireTokensOf,
    setStatus,
    accountOf,
    db,
  };
}
export type Fixtures = ReturnType<typeof createFixtures>;
