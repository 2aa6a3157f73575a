import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccountStatus, UserRole } from '@cr/contract/users';
import { forbidden, unauthorized } from '../errors';
import type { Jwt } from '../lib/jwt';

/** Who may call a route. Every API route states it; the server refuses to start when one does not. */
export type Access = 'public' | 'user' | 'admin';

export interface AuthUser {
  id: number;
  role: number;
  status: number;
  forceReset: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

export const inactiveAccountMessage = 'Activate your account first: open the link we e-mailed you.';

/** The caller, who must have an active account: an inactive one may log in but not subscribe, review or moderate (DOMAIN.md). */
export function activeUser(request: FastifyRequest): AuthUser {
  const user = currentUser(request);
  if (user.status !== AccountStatus.active) throw forbidden(inactiveAccountMessage);
  return user;
}

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
    loadUser: (id: number) => Promise<AuthUser | null>;
    /** Whether the session (refresh family) a token names is still on: logout and revocation end its access tokens. */
    sessionActive: (sessionId: string) => Promise<boolean>;
  },
) {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(options.apiBase) && !route.config?.access && !route.url.startsWith(`${options.apiBase}/docs`)) {
      throw new Error(`Route ${route.method} ${route.url} does not state who may call it (config.access).`);
    }
  });

  // onRequest runs before body parsing and validation: an anonymous caller gets 401, never a 422.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const token = bearerToken(request);
    if (token) {
      const claims = await options.jwt.verify(token);
      const user = claims && (await options.sessionActive(claims.sessionId)) ? await options.loadUser(claims.userId) : null;
      if (user && user.status !== AccountStatus.banned) request.user = user;
      else if (access !== 'public') throw unauthorized('Your session has expired. Please log in again.');
    }
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && request.user.role !== UserRole.admin) throw forbidden('This section is only accessible to admins.');
  });
}
