import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { serverMessages } from '@cr/contract/messages';
import { tokenMessages, type TokenScope } from '@cr/contract/tokens';
import { AccountStatus } from '@cr/contract/users';
import type { AuthUser } from '../domain/auth-user';
import { isAdmin } from '../domain/rules';
import { forbidden, unauthorized } from '../errors';
import type { Jwt } from '../lib/jwt';
import { addRouteHook } from './route-hooks';

/** Who may call a route. Every API route states it; the server refuses to start when one does not. */
export type Access = 'public' | 'user' | 'admin';

/**
 * The API token scope a route needs (issue 29 item 3); 'none': no token may call it (sign-in, account and session
 * routes, admin writes). Unless a route states it: reads of public and signed-in routes need `read`, everything else
 * none. So a route is open to tokens only by a rule that covers it or by saying so.
 */
export type RouteScope = TokenScope | 'none';
export function requiredScope(method: string, access: Access | undefined, scope: RouteScope | undefined): RouteScope {
  if (scope) return scope;
  return READ_METHODS.has(method) && (access === 'public' || access === 'user') ? 'read' : 'none';
}

export type { AuthUser };

/** One route as registered: the authorization matrix test checks that each has an entry. */
export interface RouteEntry {
  method: string;
  url: string;
  access: Access | undefined;
  /** The API token scope it needs. */
  scope: RouteScope;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route but the API docs' and the HEAD twins, in registration order (recorded by an onRoute hook). */
    routeTable: RouteEntry[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The route may change things while the caller must choose a new password (`force_reset`). Every other write
     * of a signed-in route is refused with 403 until then; reads are not affected.
     */
    allowDuringReset?: boolean;
    /** The API token scope the route needs, when the default (see requiredScope) is not it. */
    scope?: RouteScope;
    /**
     * A public route that renews a session from its cookie: the bearer token a client sends along, stale by then, is
     * not read (a public read refuses a stale token otherwise).
     */
    renewsSession?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The session (refresh-token family) of the caller's access token, when one was accepted. */
    sessionId: string | null;
    /** The API token the caller used, when it was one (issue 29). */
    apiTokenId: number | null;
  }
}

export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The session the caller's access token belongs to (a signed-in route only). */
export function currentSessionId(request: FastifyRequest): string {
  if (!request.user || !request.sessionId) throw unauthorized();
  return request.sessionId;
}

export const inactiveAccountMessage = 'Activate your account first: open the link we e-mailed you.';

/** The caller, who must have an active account: an inactive one may log in but not subscribe, review or moderate (DOMAIN.md). */
export function activeUser(request: FastifyRequest): AuthUser {
  const user = currentUser(request);
  if (user.status !== AccountStatus.active) throw forbidden(inactiveAccountMessage);
  return user;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export function registerAuth(
  app: FastifyInstance,
  options: {
    jwt: Jwt;
    apiBase: string;
    /**
     * The token's user, or null when the session (refresh family) it names has ended: logout and revocation end its
     * access tokens at once.
     */
    sessionUser: (userId: number, sessionId: string) => Promise<AuthUser | null>;
    /** API tokens (issue 29): whether a bearer is one, and its caller (null: unknown, expired, revoked, banned). */
    apiTokens?: {
      isToken(bearer: string): boolean;
      authenticate(token: string, bannedStatus: number): Promise<{ user: AuthUser; tokenId: number; scopes: readonly TokenScope[] } | null>;
    };
  },
) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiTokenId', null);

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${options.apiBase}/docs`)) return;
    const access = route.config?.access;
    if (route.url.startsWith(options.apiBase) && !access) {
      throw new Error(`Route ${route.method} ${route.url} does not state who may call it (config.access).`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') {
        routeTable.push({ method, url: route.url, access, scope: requiredScope(method, access, route.config?.scope) });
      }
    }
    // Each route that states its access gets the check as a hook of its own, which knows the route's options
    // (plugins/route-hooks). It runs on onRequest, before body parsing and validation: an anonymous caller gets 401,
    // never a 422.
    if (access) addRouteHook(route, 'onRequest', authenticate(access, route.config ?? {}));
  });

  const authenticate =
    (access: Access, { scope: routeScope, allowDuringReset, renewsSession }: FastifyContextConfig): onRequestAsyncHookHandler =>
    async (request) => {
      const token = bearerToken(request);
      if (token && options.apiTokens?.isToken(token)) {
        const caller = await options.apiTokens.authenticate(token, AccountStatus.banned);
        if (!caller) throw unauthorized(tokenMessages.invalid);
        const scope = requiredScope(request.method, access, routeScope);
        if (scope === 'none') throw forbidden(tokenMessages.notForTokens);
        if (!caller.scopes.includes(scope)) throw forbidden(tokenMessages.missingScope(scope));
        request.user = caller.user;
        request.apiTokenId = caller.tokenId;
      } else if (token) {
        const claims = await options.jwt.verify(token);
        const user = claims ? await options.sessionUser(claims.userId, claims.sessionId) : null;
        if (claims && user && user.status !== AccountStatus.banned) {
          request.user = user;
          request.sessionId = claims.sessionId;
        } else if (access !== 'public' || (READ_METHODS.has(request.method) && !renewsSession)) {
          // A public read refuses a token that no longer holds too: answered as a visitor's, a signed-in client kept
          // it as its own (an admin's status list without the inactive messages, which the next save erased) instead
          // of renewing its session and asking again. The session's own calls (login, logout, the refresh) still pass.
          throw unauthorized('Your session has expired. Please log in again.');
        }
      }
      if (access === 'public') return;
      if (!request.user) throw unauthorized();
      if (access === 'admin' && !isAdmin(request.user)) throw forbidden('This section is only accessible to admins.');
      // A forced password reset is enforced here, not only in the web app: no write but the routes that opt in.
      if (request.user.forceReset && !READ_METHODS.has(request.method) && allowDuringReset !== true) {
        throw forbidden(serverMessages.forcedReset);
      }
    };
}
