import { errorBody } from '@cr/contract/common';
import { openDataInfo, openDataParams, openDataRounds } from '@cr/contract/open-data';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OpenDataService } from './open-data.service';

/**
 * Issue 48 item 1: a finished round's open data, public (anyone may download and verify it). `GET
 * events/{id}/open-data` streams the zip (409 until the round's proposal scores have run, 404 for no such event);
 * `GET events/{id}/open-data/info` answers what the round's page shows; `GET events/open-data/` lists the rounds whose
 * open data is published (the page that links to each).
 */
export async function openDataRoutes(app: FastifyInstance, options: { openData: OpenDataService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/events/open-data/', { config: { access: 'public' }, schema: { tags: ['open-data'], response: { 200: openDataRounds } } }, () =>
    options.openData.rounds(),
  );
  api.get(
    '/events/:id/open-data',
    {
      config: { access: 'public' },
      // A stream: no response schema to serialise (404 no such event, 409 not yet: errorBody).
      schema: { tags: ['open-data'], params: openDataParams },
    },
    async (request, reply) => {
      const { filename, stream } = await options.openData.archive(request.params.id);
      return reply.header('content-type', 'application/zip').header('content-disposition', filename).send(stream);
    },
  );
  api.get(
    '/events/:id/open-data/info',
    {
      config: { access: 'public' },
      schema: { tags: ['open-data'], params: openDataParams, response: { 200: openDataInfo, 404: errorBody } },
    },
    (request) => options.openData.info(request.params.id),
  );
}
