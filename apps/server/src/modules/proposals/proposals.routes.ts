import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, pageQuery, paged, validationErrorBody } from '@cr/contract/common';
import {
  allocationParamsBody,
  allocationStats,
  importOptionsBody,
  importResult,
  proposalIdParams,
  proposalPublic,
  proposalRow,
  proposalsQuery,
} from '@cr/contract/proposals';
import { eventIdParams } from '@cr/contract/events';
import { currentUser } from '../../plugins/auth';
import { sendJsonText } from '../../lib/json-text';
import type { ProposalAllocationService } from './proposal-allocation.service';
import type { ProposalImportService } from './proposal-import.service';
import type { ProposalsService } from './proposals.service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 413: errorBody, 422: validationErrorBody };
const tags = ['proposals'];

/** Spec §7 "Proposals", and the proposal allocation run of §7 "Reviews" (`proposal-reviews/generate-allocations`). */
export async function proposalsRoutes(
  app: FastifyInstance,
  options: { proposals: ProposalsService; imports: ProposalImportService; allocation: ProposalAllocationService; importBodyLimit: number },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/proposals/',
    {
      config: { access: 'public' },
      schema: { tags, querystring: proposalsQuery, response: { 200: paged(proposalRow), 422: validationErrorBody } },
    },
    // The page comes as JSON text written by PostgreSQL (proposals.repository), in the schema's shape: sent as it is.
    async (request, reply) => sendJsonText(reply, await options.proposals.listJson(request.query, request.user?.id)),
  );

  // The reference API's counts (issue 17): the total of the same list.
  api.get(
    '/proposals/count/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        querystring: proposalsQuery.omit({ size: true, page: true }),
        response: { 200: z.number().int(), 422: validationErrorBody },
      },
    },
    (request) => options.proposals.count(request.query),
  );
  api.get(
    '/proposals/allocated/count',
    { config: { access: 'user' }, schema: { tags, security: [{ bearer: [] }], response: { 200: z.number().int(), ...errors } } },
    (request) => options.proposals.allocatedTotal(currentUser(request).id),
  );

  api.get(
    '/proposals/allocated',
    {
      config: { access: 'user' },
      schema: { tags, security: [{ bearer: [] }], querystring: pageQuery, response: { 200: paged(proposalRow), ...errors } },
    },
    async (request, reply) => sendJsonText(reply, await options.proposals.allocatedJson(currentUser(request).id, request.query)),
  );

  api.get(
    '/proposals/:id/',
    { config: { access: 'public' }, schema: { tags, params: proposalIdParams, response: { 200: proposalPublic, ...errors } } },
    async (request, reply) => sendJsonText(reply, await options.proposals.getJson(request.params.id, request.user?.id)),
  );

  api.post(
    '/proposals/import/:eventId',
    {
      config: { access: 'admin' },
      bodyLimit: options.importBodyLimit,
      schema: {
        tags,
        security: [{ bearer: [] }],
        params: eventIdParams,
        body: importOptionsBody,
        response: { 200: importResult, ...errors },
      },
    },
    (request) => options.imports.import(currentUser(request).id, request.params.eventId, request.body.import_options),
  );

  api.post(
    '/proposal-reviews/generate-allocations',
    {
      config: { access: 'admin' },
      schema: { tags, security: [{ bearer: [] }], body: allocationParamsBody, response: { 200: allocationStats, ...errors } },
    },
    (request) => options.allocation.generate(currentUser(request).id, request.body.allocation_params),
  );
}
