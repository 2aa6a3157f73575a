import { rowId } from '@cr/contract/common';
import { moderationStatsPublic, voteExportBody } from '@cr/contract/outcomes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth';
import type { ExportsService } from './exports.service';

const eventParams = z.object({ event: rowId });
const eventQuery = z.object({ event_id: rowId.optional() });

/** Spec §7 "Exports" (G-025..G-028): CSV downloads, admins only (a stream: no response schema to serialise). */
export async function exportsRoutes(app: FastifyInstance, options: { exports: ExportsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const [path, full] of [
    ['/proposal-reviews/export/csv/:event/', false],
    ['/proposal-reviews/export/full-csv/:event', true],
  ] as const)
    api.get(
      path,
      {
        config: { access: 'admin', scope: 'admin-read' },
        schema: { tags: ['exports'], security: [{ bearer: [] }], params: eventParams },
      },
      async (request, reply) => {
        const { filename, stream } = await options.exports.reviewsCsv(currentUser(request).id, request.params.event, full);
        return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', filename).send(stream);
      },
    );

  api.get(
    '/moderations/export/csv',
    {
      config: { access: 'admin', scope: 'admin-read' },
      schema: { tags: ['exports'], security: [{ bearer: [] }], querystring: eventQuery },
    },
    async (request, reply) => {
      const { filename, stream } = await options.exports.moderationsCsv(currentUser(request).id, request.query.event_id ?? null);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', filename).send(stream);
    },
  );
  api.get(
    '/moderations/moderator-stats/',
    {
      config: { access: 'admin', scope: 'admin-read' },
      schema: { tags: ['exports'], security: [{ bearer: [] }], querystring: eventQuery },
    },
    async (request, reply) => {
      const { filename, stream } = await options.exports.moderatorStatsCsv(currentUser(request).id, request.query.event_id ?? null);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', filename).send(stream);
    },
  );
  api.post(
    '/admin/vitss-export',
    {
      config: { access: 'admin', scope: 'admin-read' },
      schema: { tags: ['exports'], security: [{ bearer: [] }], body: voteExportBody },
    },
    async (request, reply) => {
      const { filename, document } = await options.exports.voteExport(currentUser(request).id, request.body.export_config);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', filename)
        .send(JSON.stringify(document));
    },
  );
  api.get(
    '/moderations/stats/',
    {
      config: { access: 'admin', scope: 'admin-read' },
      schema: { tags: ['exports'], security: [{ bearer: [] }], querystring: eventQuery, response: { 200: moderationStatsPublic } },
    },
    (request) => options.exports.moderationStats(request.query.event_id ?? null),
  );
}
