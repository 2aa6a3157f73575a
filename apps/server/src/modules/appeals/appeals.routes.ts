import {
  appealAllocationParamsBody,
  appealAllocationStats,
  appealDecisionBody,
  appealIdParams,
  appealListQuery,
  appealPublic,
  appealReviewParams,
  appealState,
  newAppealBody,
} from '@cr/contract/appeals';
import { errorBody, paged, pageQuery, validationErrorBody } from '@cr/contract/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import type { AppealAllocationService } from './appeal-allocation.service';
import type { AppealsService } from './appeals.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['appeals'];
const security = [{ bearer: [] }];

/**
 * Appeals (issue 28 item 2): a reviewer's appeal of an excluded review and its state, the moderators' allocated
 * appeals and decisions, an event's appeals and their allocation run (admins).
 */
export async function appealsRoutes(app: FastifyInstance, options: { appeals: AppealsService; allocation: AppealAllocationService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { appeals, allocation } = options;

  api.get(
    '/appeals/by-review/:review_id/',
    { config: { access: 'user' }, schema: { tags, security, params: appealReviewParams, response: { 200: appealState, ...errors } } },
    (request) => appeals.state(currentUser(request), request.params.review_id),
  );
  api.post(
    '/appeals/',
    {
      config: { access: 'user', scope: 'review' },
      schema: { tags, security, body: newAppealBody, response: { 201: appealPublic, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await appeals.create(currentUser(request), request.body.new_appeal)),
  );
  api.get(
    '/appeals/',
    {
      config: { access: 'admin' },
      schema: { tags, security, querystring: appealListQuery, response: { 200: paged(appealPublic), ...errors } },
    },
    (request) => appeals.ofEvent(currentUser(request), request.query.event_id, request.query),
  );
  api.get(
    '/appeals/mine/',
    { config: { access: 'user' }, schema: { tags, security, querystring: pageQuery, response: { 200: paged(appealPublic), ...errors } } },
    (request) => appeals.mine(currentUser(request), request.query),
  );
  api.get(
    '/appeals/allocated/',
    { config: { access: 'user' }, schema: { tags, security, querystring: pageQuery, response: { 200: paged(appealPublic), ...errors } } },
    (request) => appeals.allocated(currentUser(request), request.query),
  );
  api.get(
    '/appeals/:id/',
    { config: { access: 'user' }, schema: { tags, security, params: appealIdParams, response: { 200: appealPublic, ...errors } } },
    (request) => appeals.get(currentUser(request), request.params.id),
  );
  api.put(
    '/appeals/:id/decision/',
    {
      config: { access: 'user', scope: 'moderate' },
      schema: { tags, security, params: appealIdParams, body: appealDecisionBody, response: { 200: appealPublic, ...errors } },
    },
    (request) => appeals.decide(currentUser(request), request.params.id, request.body.appeal_decision),
  );
  api.post(
    '/appeals/generate-allocations',
    {
      config: { access: 'admin' },
      schema: { tags, security, body: appealAllocationParamsBody, response: { 200: appealAllocationStats, ...errors } },
    },
    (request) => allocation.generate(currentUser(request).id, request.body.allocation_params),
  );
}
