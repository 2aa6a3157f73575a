import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import { statusConfigBody, statusConfigPublic } from '@cr/contract/events';
import { isAdmin } from '../../domain/rules';
import { currentUser } from '../../plugins/auth';
import type { StatusService } from './status.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 `configs/status/`: the site-wide status messages. */
export async function statusRoutes(app: FastifyInstance, options: { status: StatusService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const statusService = options.status;

  // Everyone sees the active messages; an admin (who edits them) gets every message.
  api.get(
    '/configs/status/',
    { config: { access: 'public' }, schema: { tags: ['configs'], response: { 200: statusConfigPublic } } },
    (request) => statusService.status({ activeOnly: !isAdmin(request.user) }),
  );

  api.put(
    '/configs/status/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], body: statusConfigBody, response: { 200: statusConfigPublic, ...errors } },
    },
    (request) => statusService.putStatus(currentUser(request).id, request.body.record_update.messages),
  );
}
