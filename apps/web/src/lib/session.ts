import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AccessToken, UserInfo } from '@cr/contract/users';
import { AccountStatus, UserRole } from '@cr/contract/plain';
import { api } from './api-client';
import { retryWhileBusy } from './busy-retry';
import { withTabLock } from './tab-lock';
import { forgetOfflineData } from './service-worker';
import { isApiError } from './api-error';

/** Seconds before expiry at which the access token is refreshed (spec §4, §9). */
export const REFRESH_LEAD_MS = 50_000;
export const SESSION_STORAGE_KEY = 'session';

export interface StoredAuth extends AccessToken {
  /** Expiry of the access token, epoch milliseconds (from its `exp` claim). */
  expires_at: number;
}

/** The persisted keys of spec §4 "Session". */
export interface SessionState {
  localUser: { catalyst_id: string } | null;
  logged: boolean;
  fetching: boolean;
  userInfo: UserInfo | null;
  auth: StoredAuth | null;
  /** When the scheduled refresh fires, epoch milliseconds. */
  refreshTokenTimeout: number | null;
}

const empty: SessionState = { localUser: null, logged: false, fetching: false, userInfo: null, auth: null, refreshTokenTimeout: null };

export const useSession = create<SessionState>()(
  persist(() => ({ ...empty }), {
    name: SESSION_STORAGE_KEY,
    storage: createJSONStorage(() => localStorage),
  }),
);

export function tokenExpiry(accessToken: string): number {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return (json.exp ?? 0) * 1000;
  } catch {
    return 0;
  }
}

const toStored = (token: AccessToken): StoredAuth => ({ ...token, expires_at: tokenExpiry(token.access_token) });

// ---- the refresh timer ----------------------------------------------------------------------------------------

let timer: ReturnType<typeof setTimeout> | undefined;
type SessionEndedHandler = (reason: 'refresh-failed' | 'logout') => void;
let onSessionEnded: SessionEndedHandler = () => {};

/** The app tells the session what to do when it ends by itself (toast, go to login). */
export function setSessionEndedHandler(handler: SessionEndedHandler) {
  onSessionEnded = handler;
}

/** Delay until the refresh: 50 s before expiry, or 0 (at once) when that moment has passed. */
export function refreshDelay(expiresAt: number, now = Date.now()): number {
  return Math.max(0, expiresAt - REFRESH_LEAD_MS - now);
}

export function scheduleRefresh() {
  clearTimeout(timer);
  const { auth, logged } = useSession.getState();
  if (!logged || !auth) {
    useSession.setState({ refreshTokenTimeout: null });
    return;
  }
  const delay = refreshDelay(auth.expires_at);
  useSession.setState({ refreshTokenTimeout: Date.now() + delay });
  timer = setTimeout(() => void refreshSession(), delay);
}

function clearSession() {
  clearTimeout(timer);
  useSession.setState({ ...empty });
  // The API answers kept for offline reading belong to this session (issue 29).
  void forgetOfflineData();
}

// One tab refreshes at a time: a rotated refresh token replayed by a second tab after the server's grace window would
// end the session.
const withLock = <T>(run: () => Promise<T>): Promise<T> => withTabLock('cr-session-refresh', run);

let refreshing: Promise<boolean> | undefined;

/**
 * Refreshes the access token; on failure ends the session. Resolves true when a valid token is in place. Calls made
 * while a refresh runs in this tab share it (several 401s at once must not replay the rotated refresh token).
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= refreshOnce().finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

function refreshOnce(): Promise<boolean> {
  const tokenBefore = useSession.getState().auth?.access_token;
  return withLock(async () => {
    await useSession.persist.rehydrate();
    const current = useSession.getState();
    if (!current.logged) return false;
    if (current.auth && current.auth.access_token !== tokenBefore && refreshDelay(current.auth.expires_at) > 0) {
      scheduleRefresh(); // another tab refreshed while we waited
      return true;
    }
    try {
      const token = await api<AccessToken>('users/token/refresh', { retried: true });
      useSession.setState({ auth: toStored(token) });
      scheduleRefresh();
      return true;
    } catch (error) {
      // No connection (issue 29: reviewing offline): the session stands, and the refresh is tried again once the
      // connection returns. Only the server's refusal ends it.
      if (!isApiError(error)) {
        retryRefreshLater();
        return false;
      }
      clearSession();
      onSessionEnded('refresh-failed');
      return false;
    }
  });
}

function retryRefreshLater() {
  clearTimeout(timer);
  const again = () => void refreshSession();
  if (typeof window !== 'undefined' && typeof navigator !== 'undefined' && navigator.onLine === false) {
    window.addEventListener('online', again, { once: true });
  } else timer = setTimeout(again, 30_000);
}

// ---- session lifecycle ----------------------------------------------------------------------------------------

export async function loadUserInfo(): Promise<UserInfo | null> {
  useSession.setState({ fetching: true });
  try {
    const userInfo = await api<UserInfo>('users/me/');
    useSession.setState({ userInfo });
    return userInfo;
  } finally {
    useSession.setState({ fetching: false });
  }
}

/**
 * A successful password change ends a forced reset at once (the server clears the flag in the same step): the
 * guards read the persisted session synchronously, so waiting for the fresh user info would let a navigation in
 * between be sent back to /reset-password (spec §6, checklist A-038).
 */
export function endForcedReset() {
  const { userInfo } = useSession.getState();
  if (userInfo?.extra.force_reset) useSession.setState({ userInfo: { ...userInfo, extra: { ...userInfo.extra, force_reset: false } } });
}

/**
 * Takes a new access token for the current session (a password change answers one): stored, and the refresh timer
 * planned from its expiry. Ignored once logged out.
 */
export function takeAccessToken(token: AccessToken) {
  if (!useSession.getState().logged) return;
  useSession.setState({ auth: toStored(token) });
  scheduleRefresh();
}

/**
 * Login: stores the auth and user info and starts the refresh timer (spec §4). A login the server sheds for load (503
 * with Retry-After) is asked again once the wait is over, `busy` hearing the seconds left (issue 45 item 15).
 */
export async function login(
  catalystId: string,
  password: string,
  busy: { onWait?: (secondsLeft: number | null) => void; signal?: AbortSignal } = {},
): Promise<UserInfo | null> {
  const token = await retryWhileBusy(
    () => api<AccessToken>('users/token/login', { method: 'POST', form: { username: catalystId, password }, signal: busy.signal }),
    busy.onWait ?? (() => {}),
    busy.signal,
  );
  useSession.setState({ auth: toStored(token), logged: true, localUser: { catalyst_id: catalystId } });
  try {
    const userInfo = await loadUserInfo();
    scheduleRefresh();
    return userInfo;
  } catch (error) {
    clearSession();
    throw error;
  }
}

/** Logout: tells the server to revoke the session, and clears the state whatever it answers. */
export async function logout(): Promise<void> {
  try {
    await api('users/token/logout', { method: 'POST', retried: true });
  } finally {
    clearSession();
  }
}

/** On start and when another tab changes the session: take over its state and timer. */
export function resumeSession() {
  const { logged, auth } = useSession.getState();
  if (logged && auth) scheduleRefresh();
  else clearTimeout(timer);
}

export function listenAcrossTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    void useSession.persist.rehydrate().then(resumeSession);
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

// ---- derived facts the guards and the navigation use ----------------------------------------------------------

export const isAdmin = (state: SessionState) => state.logged && state.userInfo?.extra.role === UserRole.admin;
export const isForcedReset = (state: SessionState) => state.logged && state.userInfo?.extra.force_reset === true;
export const isInactive = (state: SessionState) =>
  state.logged && state.userInfo !== null && state.userInfo.catalyst_id.status !== AccountStatus.active;
