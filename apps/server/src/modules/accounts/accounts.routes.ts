import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendJsonText } from '../../lib/json-text';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, okBody, validationErrorBody } from '@cr/contract/common';
import {
  accessToken,
  activateBody,
  catalystIdPublic,
  catalystIdUpdateBody,
  loginForm,
  registerBody,
  resetBody,
  resetRequestBody,
  updatePasswordBody,
  userInfo,
  verifyEmailBody,
  languageAnswer,
  languageBody,
} from '@cr/contract/users';
import { requestLanguage } from '../../lib/i18n';
import { currentSessionId, currentUser } from '../../plugins/auth';
import { refuseCrossSite } from '../../plugins/same-site';
import type { AccountsService } from './accounts.service';
import { DEVICE_COOKIE } from './device-cookies';
import type { SessionService } from './session.service';
import type { UserInfoService } from './user-info.service';

export const REFRESH_COOKIE = 'cr_refresh';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  session: SessionService;
  userInfo: UserInfoService;
  apiBase: string;
  secureCookies: boolean;
  refreshTtlDays: number;
  /** How long a device cookie lasts (LOGIN_DEVICE_COOKIE_DAYS). */
  deviceCookieDays: number;
  /** The site's own address: cookie-setting requests from any other site are refused. */
  publicUrl: string;
}

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 409: errorBody, 422: validationErrorBody, 429: errorBody, 503: errorBody };

/** Spec §7 "Users and session" and the reference API's catalyst-ids routes. */
export async function accountsRoutes(app: FastifyInstance, options: AccountsRoutesOptions) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, session } = options;
  const cookiePath = `${options.apiBase}/users`;
  const loginPath = `${options.apiBase}/users/token/login`;

  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: options.secureCookies,
      path: cookiePath,
      maxAge: options.refreshTtlDays * 24 * 60 * 60,
    });
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: cookiePath });
  const refreshCookie = (request: FastifyRequest) => request.cookies[REFRESH_COOKIE];
  const tags = ['users'];
  const sameSiteOnly = refuseCrossSite(options.publicUrl);

  api.post(
    '/users/',
    { config: { access: 'public' }, schema: { tags, body: registerBody, response: { 201: okBody, ...errors } } },
    async (request, reply) => {
      await accounts.register(request.body.new_user, request.ip, requestLanguage(request.headers));
      return reply.code(201).send(true);
    },
  );

  // Issue 45 item 15: an address known to be locked out, or without a place in the hashing queue, is refused before its
  // body is read, unless the request carries a device cookie (the login checks that it is one for the name it logs in).
  const refuseLockedAddress = async (request: FastifyRequest) => session.refuseEarly(request.ip, request.cookies[DEVICE_COOKIE]);

  api.post(
    '/users/token/login',
    {
      config: { access: 'public' },
      onRequest: [sameSiteOnly, refuseLockedAddress],
      schema: { tags, consumes: ['application/x-www-form-urlencoded'], body: loginForm, response: { 200: accessToken, ...errors } },
    },
    async (request, reply) => {
      const result = await session.login(request.body.username, request.body.password, request.ip, request.cookies[DEVICE_COOKIE]);
      setRefreshCookie(reply, result.refreshToken);
      // The device cookie goes to the login route alone, and to no script.
      reply.setCookie(DEVICE_COOKIE, result.deviceCookie, {
        httpOnly: true,
        sameSite: 'strict',
        secure: options.secureCookies,
        path: loginPath,
        maxAge: options.deviceCookieDays * 24 * 60 * 60,
      });
      return { access_token: result.accessToken, token_type: 'bearer' as const };
    },
  );

  api.get(
    '/users/token/refresh',
    { config: { access: 'public', renewsSession: true }, schema: { tags, response: { 200: accessToken, 401: errorBody } } },
    async (request, reply) => {
      try {
        const result = await session.refresh(refreshCookie(request));
        setRefreshCookie(reply, result.refreshToken);
        return { access_token: result.accessToken, token_type: 'bearer' as const };
      } catch (error) {
        clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  api.post(
    '/users/token/logout',
    { config: { access: 'public' }, onRequest: sameSiteOnly, schema: { tags, response: { 200: okBody, 403: errorBody } } },
    async (request, reply) => {
      await session.logout(refreshCookie(request));
      clearRefreshCookie(reply);
      return true;
    },
  );

  api.get(
    '/users/me/',
    { config: { access: 'user' }, schema: { tags, security: [{ bearer: [] }], response: { 200: userInfo, 401: errorBody } } },
    // Written with JSON.stringify, its type the contract's (UserInfo): the schema's serializer parsed the answer again
    // first, a third of the request's own CPU (issue 45 item 13).
    async (request, reply) => sendJsonText(reply, JSON.stringify(await options.userInfo.me(currentUser(request).id))),
  );

  // Issue 31: the language chosen on the profile or in the language menu, kept with the account for its mails.
  api.put(
    '/users/me/language/',
    {
      config: { access: 'user' },
      schema: { tags, security: [{ bearer: [] }], body: languageBody, response: { 200: languageAnswer, ...errors } },
    },
    (request) => accounts.setLanguage(currentUser(request).id, request.body.language),
  );

  api.post(
    '/users/activate',
    { config: { access: 'public' }, schema: { tags, body: activateBody, response: { 200: okBody, ...errors } } },
    async (request) => {
      await accounts.activate(request.body.user_activation.confirmation_token);
      return true;
    },
  );

  api.post(
    '/users/password/reset-request',
    { config: { access: 'public' }, schema: { tags, body: resetRequestBody, response: { 201: okBody, ...errors } } },
    async (request, reply) => {
      await accounts.requestPasswordReset(request.body.new_user.catalyst_id, request.ip);
      return reply.code(201).send(true);
    },
  );

  api.post(
    '/users/password/reset',
    { config: { access: 'public' }, schema: { tags, body: resetBody, response: { 200: okBody, ...errors } } },
    async (request) => {
      await accounts.resetPassword(request.body.user_reset);
      return true;
    },
  );

  api.post(
    '/users/password/update',
    {
      config: { access: 'user', allowDuringReset: true },
      schema: { tags, security: [{ bearer: [] }], body: updatePasswordBody, response: { 200: accessToken, ...errors } },
    },
    // The caller's session (its access token's, whose refresh cookie stays valid) is kept and every other one ends;
    // the answer is a new access token for it, as the reference API's (issue 17).
    async (request) => {
      const userId = currentUser(request).id;
      const sessionId = currentSessionId(request);
      await accounts.updatePassword(userId, request.body.update_user, sessionId, request.ip);
      return { access_token: await session.accessToken(userId, sessionId), token_type: 'bearer' as const };
    },
  );

  api.get(
    '/catalyst-ids/me',
    {
      config: { access: 'user' },
      schema: { tags: ['catalyst-ids'], security: [{ bearer: [] }], response: { 200: catalystIdPublic, 401: errorBody } },
    },
    (request) => options.userInfo.catalystId(currentUser(request).id),
  );

  api.post(
    '/catalyst-ids/me',
    {
      config: { access: 'user' },
      schema: {
        tags: ['catalyst-ids'],
        security: [{ bearer: [] }],
        body: catalystIdUpdateBody,
        response: { 200: catalystIdPublic, ...errors },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await accounts.requestEmailChange(userId, request.body.email, request.ip, request.body.redirect);
      return options.userInfo.catalystId(userId);
    },
  );

  api.post(
    '/catalyst-ids/verify-email',
    { config: { access: 'public' }, schema: { tags: ['catalyst-ids'], body: verifyEmailBody, response: { 200: okBody, ...errors } } },
    async (request) => {
      await accounts.verifyEmail(request.body.email_verification.confirmation_token);
      return true;
    },
  );
}
