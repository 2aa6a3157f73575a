import { computeFlagsParams, externalFlagsFile, flagRunStats } from '@cr/contract/flags';
import { bodyRowId, errorBody, validationErrorBody } from '@cr/contract/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth';
import type { FlagsService } from './flags.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['flags'];

/** The admin's flag runs (issue 14 item 1): compute the event's flags, or load an outside tool's file of flags. */
export async function flagsRoutes(app: FastifyInstance, options: { flags: FlagsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/flags/compute',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: z.object({ compute_params: computeFlagsParams }),
        response: { 200: flagRunStats.extend({ dry_run: z.boolean() }), ...errors },
      },
    },
    (request) => options.flags.compute(currentUser(request).id, request.body.compute_params),
  );
  api.post(
    '/flags/import',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: [{ bearer: [] }],
        body: z.object({ event_id: bodyRowId, flags: externalFlagsFile }),
        response: { 200: z.object({ flags: z.number().int(), types: z.array(z.number().int()) }), ...errors },
      },
    },
    (request) => options.flags.importFile(currentUser(request).id, request.body.event_id, request.body.flags),
  );
}
