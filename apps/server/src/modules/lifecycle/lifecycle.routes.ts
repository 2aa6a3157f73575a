import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, okBody, validationErrorBody } from '@cr/contract/common';
import { accountExport, banAnswer, banBody, closeAccountBody, exportQuery } from '@cr/contract/lifecycle';
import { adminUserParams } from '@cr/contract/users';
import { currentUser } from '../../plugins/auth';
import type { AccountExportService } from './export.service';
import type { LifecycleService } from './lifecycle.service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody, 429: errorBody };
const security = [{ bearer: [] }];

/**
 * Issue 47. Admins only: `admin/users/{id}/ban` and `…/unban` (by user id or Catalyst ID, as `admin/users/{id}`).
 * The signed-in person: `users/me/close` (a session only, confirmed with the password) and `users/me/export`, which a
 * token with the read scope may call too (for scripts).
 */
export async function lifecycleRoutes(app: FastifyInstance, options: { lifecycle: LifecycleService; accountExport: AccountExportService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { lifecycle } = options;

  api.post(
    '/admin/users/:id/ban',
    {
      config: { access: 'admin' },
      schema: { tags: ['admin'], security, params: adminUserParams, body: banBody, response: { 200: banAnswer, ...errors } },
    },
    (request) => lifecycle.ban(currentUser(request), request.params.id, request.body),
  );

  api.post(
    '/admin/users/:id/unban',
    {
      config: { access: 'admin' },
      schema: { tags: ['admin'], security, params: adminUserParams, response: { 200: banAnswer, ...errors } },
    },
    (request) => lifecycle.unban(currentUser(request), request.params.id),
  );

  api.post(
    '/users/me/close',
    {
      // Closing is a person's right even while they must choose a new password.
      config: { access: 'user', allowDuringReset: true },
      schema: { tags: ['users'], security, body: closeAccountBody, response: { 200: okBody, ...errors } },
    },
    async (request) => {
      await lifecycle.close(currentUser(request).id, request.body.password, request.ip);
      return true;
    },
  );

  api.get(
    '/users/me/export',
    {
      config: { access: 'user', scope: 'read' },
      schema: { tags: ['users'], security, querystring: exportQuery, response: { 200: accountExport, ...errors } },
    },
    async (request, reply) => {
      const data = await options.accountExport.exportFor(currentUser(request).id);
      const date = data.exported_at.slice(0, 10);
      if (request.query.format === 'markdown') {
        // A string with a content type of its own runs no serializer (the schema documents the JSON form).
        return (reply as FastifyReply)
          .type('text/markdown; charset=utf-8')
          .header('content-disposition', `attachment; filename="community-review-data-${date}.md"`)
          .send(options.accountExport.asMarkdown(data));
      }
      return reply.header('content-disposition', `attachment; filename="community-review-data-${date}.json"`).send(data);
    },
  );
}
