import { errorBody, validationErrorBody } from '@cr/contract/common';
import { dashboard } from '@cr/contract/dashboard';
import { eventIdParams } from '@cr/contract/events';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DashboardService } from './dashboard.service';

/** Issue 15 item 5: the round's dashboard, admins only. */
export async function dashboardRoutes(app: FastifyInstance, options: { dashboard: DashboardService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/events/:eventId/dashboard/',
    {
      config: { access: 'admin', scope: 'admin-read' },
      schema: {
        tags: ['events'],
        security: [{ bearer: [] }],
        params: eventIdParams,
        response: { 200: dashboard, 401: errorBody, 403: errorBody, 404: errorBody, 422: validationErrorBody },
      },
    },
    (request) => options.dashboard.dashboard(request.params.eventId),
  );
}
