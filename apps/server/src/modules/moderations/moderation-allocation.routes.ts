import { errorBody, validationErrorBody } from '@cr/contract/common';
import { moderationAllocationParamsBody, moderationAllocationStats } from '@cr/contract/moderations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import type { ModerationAllocationService } from './moderation-allocation.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 `POST moderations/generate-allocations` (F-054): the moderation allocation run, admins only. */
export async function moderationAllocationRoutes(app: FastifyInstance, options: { allocation: ModerationAllocationService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/moderations/generate-allocations',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['moderations'],
        security: [{ bearer: [] }],
        body: moderationAllocationParamsBody,
        response: { 200: moderationAllocationStats, ...errors },
      },
    },
    (request) => options.allocation.generate(currentUser(request).id, request.body.allocation_params),
  );
}
