import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '@cr/contract/users';
import { AccountStatus, UserRole } from '@cr/contract/users';

// The store persists to localStorage as soon as the module loads, so it must exist before the imports run.
const storage = vi.hoisted(() => {
  const data = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, String(value)),
    removeItem: (key: string) => void data.delete(key),
    clear: () => data.clear(),
    key: (index: number) => [...data.keys()][index] ?? null,
    get length() {
      return data.size;
    },
  };
  Object.defineProperty(globalThis, 'localStorage', { value: localStorage, configurable: true, writable: true });
  return data;
});

import { setAuthHandlers } from './api-client';
import { ApiError } from './api-error';
import {
  REFRESH_LEAD_MS,
  SESSION_STORAGE_KEY,
  endForcedReset,
  isAdmin,
  isForcedReset,
  isInactive,
  listenAcrossTabs,
  login,
  logout,
  refreshDelay,
  refreshSession,
  scheduleRefresh,
  setSessionEndedHandler,
  takeAccessToken,
  tokenExpiry,
  useSession,
  type SessionState,
} from './session';

const fetchMock = vi.fn<typeof fetch>();
const sessionEnded = vi.fn();

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (payload: object) => `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(payload))}.signature`;

function respond(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status });
}

function call(index = 0) {
  const [url, init] = fetchMock.mock.calls[index] ?? [];
  return { url: String(url), init: init ?? {}, headers: (init?.headers ?? {}) as Record<string, string> };
}

function userInfo({ role = UserRole.user as number, forceReset = false, status = AccountStatus.active as number } = {}): UserInfo {
  return {
    email: 'reviewer@example.org',
    username: 'reviewer',
    catalyst_id: {
      id: 'cardano/abc',
      email: 'reviewer@example.org',
      email_verified: true,
      username: 'reviewer',
      status,
      rbac_reg_status: 3,
    },
    extra: {
      role,
      force_reset: forceReset,
      unique_objectives_as_author: [],
      subscriptions: [],
      due_diligence: { status: 0, url: null },
      language: null,
      registered_at: '2025-01-01T00:00:00Z',
      stats: { reviews: { allocations: 0, submitted: 0, allocated_submitted: 0 } },
      historic_stats: {
        reviews: { active_funds: 0, submitted: 0, blank: 0, valid: 0, approval_rate: 0 },
        moderations: { active_funds: 0, submitted: 0 },
      },
    },
  };
}

const loggedOut: SessionState = { localUser: null, logged: false, fetching: false, userInfo: null, auth: null, refreshTokenTimeout: null };

function logIn(accessToken: string, expiresAt: number) {
  useSession.setState({
    logged: true,
    localUser: { catalyst_id: 'cardano/abc' },
    userInfo: userInfo(),
    auth: { access_token: accessToken, token_type: 'bearer', expires_at: expiresAt },
  });
}

const persisted = () => (JSON.parse(storage.get(SESSION_STORAGE_KEY) ?? '{}') as { state?: SessionState }).state;

beforeEach(() => {
  fetchMock.mockReset();
  sessionEnded.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', { location: { origin: 'http://app.test' }, addEventListener: vi.fn(), removeEventListener: vi.fn() });
  // As app/provider.tsx wires them.
  setAuthHandlers({
    token: () => {
      const { logged, auth } = useSession.getState();
      return logged ? auth?.access_token : undefined;
    },
    refresh: refreshSession,
  });
  setSessionEndedHandler(sessionEnded);
  useSession.setState({ ...loggedOut });
  storage.clear();
});

afterEach(() => {
  useSession.setState({ ...loggedOut });
  scheduleRefresh(); // logged out: clears the pending timer
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('refreshDelay', () => {
  const now = 1_750_000_000_000;

  it('schedules the refresh 50 seconds before the token expires (A-107)', () => {
    expect(REFRESH_LEAD_MS).toBe(50_000);
    expect(refreshDelay(now + 300_000, now)).toBe(250_000);
    expect(refreshDelay(now + 50_001, now)).toBe(1);
  });

  it('refreshes at once when the moment 50 seconds before expiry has passed (A-108)', () => {
    expect(refreshDelay(now + 50_000, now)).toBe(0);
    expect(refreshDelay(now + 10_000, now)).toBe(0);
    expect(refreshDelay(now - 3_600_000, now)).toBe(0);
    expect(refreshDelay(0, now)).toBe(0);
  });

  it('measures from the current time by default (A-107)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    expect(refreshDelay(now + 120_000)).toBe(70_000);
  });
});

describe('tokenExpiry', () => {
  it('reads the exp claim of a base64url token as epoch milliseconds (A-107)', () => {
    const token = jwt({ exp: 1_750_000_000, sub: '>>>???>>>???' });
    expect(token.split('.')[1]).toMatch(/[-_]/); // the payload really uses the URL-safe alphabet
    expect(tokenExpiry(token)).toBe(1_750_000_000_000);
  });

  it('gives 0 (refresh at once) for a token without exp or that cannot be read (A-108)', () => {
    expect(tokenExpiry(jwt({ sub: 'x' }))).toBe(0);
    expect(tokenExpiry('not-a-jwt')).toBe(0);
    expect(tokenExpiry('a.%%%.c')).toBe(0);
    expect(tokenExpiry('')).toBe(0);
  });
});

describe('the refresh timer', () => {
  const fakeClock = () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2025-06-01T12:00:00Z'));
    return Date.now();
  };

  it('fires 50 seconds before expiry and calls GET users/token/refresh (A-107, A-109)', async () => {
    const now = fakeClock();
    logIn('old-token', now + 120_000);
    const exp = Math.floor(now / 1000) + 900;
    const fresh = jwt({ exp });
    fetchMock.mockImplementation(async () => respond(200, { access_token: fresh, token_type: 'bearer' }));

    scheduleRefresh();
    expect(useSession.getState().refreshTokenTimeout).toBe(now + 70_000);
    await vi.advanceTimersByTimeAsync(69_999);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(useSession.getState().auth?.access_token).toBe(fresh));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(call().url).toBe('/api/reviews/users/token/refresh');
    expect(call().init.method).toBe('GET');
    expect(useSession.getState().auth?.expires_at).toBe(exp * 1000);
    // The next refresh is planned 50 s before the new expiry.
    expect(useSession.getState().refreshTokenTimeout).toBe(exp * 1000 - 50_000);
    expect(useSession.getState().logged).toBe(true);
  });

  it('refreshes at once when the token is about to expire or has expired (A-108)', async () => {
    const now = fakeClock();
    logIn('old-token', now - 1_000);
    fetchMock.mockImplementation(async () =>
      respond(200, { access_token: jwt({ exp: Math.floor(now / 1000) + 900 }), token_type: 'bearer' }),
    );
    scheduleRefresh();
    expect(useSession.getState().refreshTokenTimeout).toBe(now);
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(call().url).toBe('/api/reviews/users/token/refresh');
  });

  it('logs the user out when the refresh fails (A-110)', async () => {
    const now = fakeClock();
    logIn('old-token', now + 60_000);
    fetchMock.mockImplementation(async () => respond(401, { message: 'Refresh token revoked' }));
    scheduleRefresh();
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(sessionEnded).toHaveBeenCalledWith('refresh-failed'));
    expect(fetchMock).toHaveBeenCalledTimes(1); // no refresh of the refresh
    expect(useSession.getState()).toMatchObject(loggedOut);
    expect(persisted()).toMatchObject({ logged: false, auth: null, userInfo: null });
  });

  it('keeps the session when the refresh cannot reach the server, and tries again later (issue 29: offline)', async () => {
    const now = fakeClock();
    logIn('old-token', now + 60_000);
    const fresh = jwt({ exp: Math.floor(now / 1000) + 900 });
    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    fetchMock.mockImplementation(async () => respond(200, { access_token: fresh, token_type: 'bearer' }));
    scheduleRefresh();
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(sessionEnded).not.toHaveBeenCalled();
    expect(useSession.getState().logged).toBe(true);
    // Tried again 30 s later, when the connection is back.
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(() => expect(useSession.getState().auth?.access_token).toBe(fresh));
    expect(useSession.getState().logged).toBe(true);
  });

  it('plans no refresh while logged out (A-107)', () => {
    useSession.setState({ refreshTokenTimeout: 123 });
    scheduleRefresh();
    expect(useSession.getState().refreshTokenTimeout).toBeNull();
  });

  it('runs one refresh for several calls that get a 401 at once (A-109)', async () => {
    logIn('old-token', Date.now() + 600_000);
    const fresh = jwt({ exp: Math.floor(Date.now() / 1000) + 900 });
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('users/token/refresh')) return respond(200, { access_token: fresh, token_type: 'bearer' });
      const authorization = (init?.headers as Record<string, string>).authorization;
      return authorization === `Bearer ${fresh}` ? respond(200, { ok: true }) : respond(401, { message: 'expired' });
    });
    const { api } = await import('./api-client');
    await expect(Promise.all([api('users/me/'), api('events/current'), refreshSession()])).resolves.toEqual([
      { ok: true },
      { ok: true },
      true,
    ]);
    const refreshes = fetchMock.mock.calls.filter(([input]) => String(input).endsWith('users/token/refresh'));
    expect(refreshes).toHaveLength(1);
    expect(useSession.getState().auth?.access_token).toBe(fresh);
  });
});

describe('a new access token for the session (issue 17)', () => {
  it('takes the token a password change answers: stored with its expiry, and the refresh planned from it', () => {
    logIn('old-token', Date.now() + 60_000);
    const exp = Math.floor(Date.now() / 1000) + 900;
    const fresh = jwt({ exp });
    takeAccessToken({ access_token: fresh, token_type: 'bearer' });
    const state = useSession.getState();
    expect(state.auth).toEqual({ access_token: fresh, token_type: 'bearer', expires_at: exp * 1000 });
    expect(state.refreshTokenTimeout).toBe(exp * 1000 - 50_000);
    expect(state).toMatchObject({ logged: true, userInfo: userInfo() });
    expect(persisted()).toMatchObject({ auth: { access_token: fresh } });
  });

  it('ignores a token that arrives after logging out', () => {
    takeAccessToken({ access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 900 }), token_type: 'bearer' });
    expect(useSession.getState()).toMatchObject(loggedOut);
  });
});

describe('login and logout', () => {
  it('logs in with a form-encoded POST users/token/login and stores auth, user info and timer (A-054, A-055, A-111)', async () => {
    const exp = Math.floor(Date.now() / 1000) + 900;
    const token = jwt({ exp });
    const info = userInfo();
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('users/token/login') ? respond(200, { access_token: token, token_type: 'bearer' }) : respond(200, info),
    );

    await expect(login('cardano/abc', 'Secret 123')).resolves.toEqual(info);

    expect(call(0).url).toBe('/api/reviews/users/token/login');
    expect(call(0).init.method).toBe('POST');
    expect(call(0).headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call(0).init.body).toBe('username=cardano%2Fabc&password=Secret+123');
    expect(call(0).headers).not.toHaveProperty('authorization');
    expect(call(1).url).toBe('/api/reviews/users/me/');
    expect(call(1).init.method).toBe('GET');
    expect(call(1).headers.authorization).toBe(`Bearer ${token}`);

    const state = useSession.getState();
    expect(state).toMatchObject({ logged: true, fetching: false, localUser: { catalyst_id: 'cardano/abc' }, userInfo: info });
    expect(state.auth).toEqual({ access_token: token, token_type: 'bearer', expires_at: exp * 1000 });
    expect(state.refreshTokenTimeout).toBe(exp * 1000 - 50_000);
  });

  it('persists exactly the session keys localUser, logged, fetching, userInfo, auth and refreshTokenTimeout (A-113)', async () => {
    const token = jwt({ exp: Math.floor(Date.now() / 1000) + 900 });
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('users/token/login') ? respond(200, { access_token: token, token_type: 'bearer' }) : respond(200, userInfo()),
    );
    await login('cardano/abc', 'Secret 123');
    const state = persisted();
    expect(Object.keys(state ?? {}).sort()).toEqual(['auth', 'fetching', 'localUser', 'logged', 'refreshTokenTimeout', 'userInfo']);
    expect(state).toMatchObject({ logged: true, localUser: { catalyst_id: 'cardano/abc' }, auth: { access_token: token } });
  });

  it('stays logged out and rethrows when the login is refused (§4)', async () => {
    fetchMock.mockImplementation(async () => respond(401, { message: 'Wrong Catalyst ID or password' }));
    const error = await login('cardano/abc', 'bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, serverMessage: 'Wrong Catalyst ID or password' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useSession.getState()).toMatchObject(loggedOut);
  });

  it('asks again by itself when the login is shed with 503 and Retry-After, saying how long it waits (issue 45 item 15)', async () => {
    vi.useFakeTimers();
    const token = jwt({ exp: Math.floor(Date.now() / 1000) + 900 });
    const info = userInfo();
    let logins = 0;
    fetchMock.mockImplementation(async (input) => {
      if (!String(input).endsWith('users/token/login')) return respond(200, info);
      logins += 1;
      return logins === 1
        ? new Response(JSON.stringify({ message: 'The server is busy.' }), { status: 503, headers: { 'retry-after': '2' } })
        : respond(200, { access_token: token, token_type: 'bearer' });
    });
    const waits: (number | null)[] = [];
    const done = login('cardano/abc', 'Secret 123', { onWait: (seconds) => waits.push(seconds) });
    await vi.waitFor(() => expect(waits).toEqual([2]));
    await vi.advanceTimersByTimeAsync(1000);
    expect(waits).toEqual([2, 1]);
    expect(logins).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(done).resolves.toEqual(info);
    expect(waits).toEqual([2, 1, null]);
    expect(logins).toBe(2);
    expect(useSession.getState()).toMatchObject({ logged: true, userInfo: info });
  });

  it('does not retry a 503 without Retry-After, nor a 429 (issue 45 item 15)', async () => {
    fetchMock.mockImplementationOnce(async () => respond(503, { message: 'busy' }));
    await expect(login('cardano/abc', 'Secret 123')).rejects.toMatchObject({ status: 503 });
    fetchMock.mockImplementationOnce(async () => new Response('{"message":"slow down"}', { status: 429, headers: { 'retry-after': '5' } }));
    await expect(login('cardano/abc', 'Secret 123')).rejects.toMatchObject({ status: 429, retryAfter: 5 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('clears the session again when the user info cannot be loaded after login (A-055)', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('users/token/login')
        ? respond(200, { access_token: jwt({ exp: Math.floor(Date.now() / 1000) + 900 }), token_type: 'bearer' })
        : respond(500, { message: 'boom' }),
    );
    await expect(login('cardano/abc', 'Secret 123')).rejects.toMatchObject({ status: 500 });
    expect(useSession.getState()).toMatchObject(loggedOut);
  });

  it('logs out with POST users/token/logout and clears the state (A-104)', async () => {
    logIn('tok', Date.now() + 600_000);
    scheduleRefresh();
    fetchMock.mockImplementation(async () => respond(200, true));
    await logout();
    expect(call().url).toBe('/api/reviews/users/token/logout');
    expect(call().init.method).toBe('POST');
    expect(call().headers.authorization).toBe('Bearer tok');
    expect(useSession.getState()).toMatchObject(loggedOut);
    expect(persisted()).toMatchObject({ logged: false, auth: null });
  });

  it('clears the state even when the logout call fails, and reports the failure (A-104)', async () => {
    logIn('tok', Date.now() + 600_000);
    fetchMock.mockImplementation(async () => respond(401, { message: 'expired' }));
    await expect(logout()).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(1); // no refresh just to log out
    expect(useSession.getState()).toMatchObject(loggedOut);
  });
});

describe('across tabs', () => {
  it("takes over another tab's logout from storage (A-113)", async () => {
    logIn('tok', Date.now() + 600_000);
    const addEventListener = vi.fn();
    vi.stubGlobal('window', { location: { origin: 'http://app.test' }, addEventListener, removeEventListener: vi.fn() });
    listenAcrossTabs();
    const onStorage = addEventListener.mock.calls.find(([type]) => type === 'storage')?.[1] as (event: { key: string | null }) => void;
    storage.set(SESSION_STORAGE_KEY, JSON.stringify({ state: loggedOut, version: 0 }));

    onStorage({ key: 'something-else' });
    await Promise.resolve();
    expect(useSession.getState().logged).toBe(true);

    onStorage({ key: SESSION_STORAGE_KEY });
    await vi.waitFor(() => expect(useSession.getState().logged).toBe(false));
  });
});

describe('derived facts', () => {
  const state = (info: UserInfo | null, logged = true): SessionState => ({ ...loggedOut, logged, userInfo: info });

  it('counts only role 100 as admin, and only when logged in (A-042)', () => {
    expect(isAdmin(state(userInfo({ role: 100 })))).toBe(true);
    expect(isAdmin(state(userInfo({ role: 0 })))).toBe(false);
    expect(isAdmin(state(userInfo({ role: 1 })))).toBe(false);
    expect(isAdmin(state(userInfo({ role: 100 }), false))).toBe(false);
    expect(isAdmin(state(null))).toBe(false);
  });

  it('sees a forced password reset only when logged in with force_reset set (A-037, A-038)', () => {
    expect(isForcedReset(state(userInfo({ forceReset: true })))).toBe(true);
    expect(isForcedReset(state(userInfo({ forceReset: false })))).toBe(false);
    expect(isForcedReset(state(userInfo({ forceReset: true }), false))).toBe(false);
  });

  it('ends a forced reset in the stored session at once, before the fresh user info arrives (A-038)', () => {
    useSession.setState({ ...loggedOut, logged: true, userInfo: userInfo({ forceReset: true }) });
    expect(isForcedReset(useSession.getState())).toBe(true);
    endForcedReset();
    expect(isForcedReset(useSession.getState())).toBe(false);
    // The guards of a freshly loaded page read the persisted copy: it must already be cleared.
    expect(persisted()?.userInfo?.extra.force_reset).toBe(false);
  });

  it('sees a logged-in account that is not active as inactive (A-046, A-047)', () => {
    expect(isInactive(state(userInfo({ status: 0 })))).toBe(true);
    expect(isInactive(state(userInfo({ status: 1 })))).toBe(true);
    expect(isInactive(state(userInfo({ status: 3 })))).toBe(true);
    expect(isInactive(state(userInfo({ status: 2 })))).toBe(false);
    expect(isInactive(state(userInfo({ status: 0 }), false))).toBe(false);
    expect(isInactive(state(null))).toBe(false);
  });
});
