import { errorBody, validationErrorBody } from '@cr/contract/common';
import {
  coverageModeratorsPage,
  coverageModeratorsQuery,
  coverageQuery,
  coverageReviewsPage,
  coverageReviewsQuery,
  coverageSummary,
  topUpParamsBody,
  topUpStats,
} from '@cr/contract/coverage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import type { CoverageService } from './coverage.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 422: validationErrorBody };
const common = { tags: ['moderations'], security: [{ bearer: [] }] };

/**
 * Moderation coverage (issue 28 item 1), admins only: `GET moderations/coverage` (the figures),
 * `GET moderations/coverage/reviews` (short or tied reviews, paged), `GET moderations/coverage/moderators` (moderators
 * with unfinished allocations, paged) and `POST moderations/top-up` (the top-up run, dry by default).
 */
export async function coverageRoutes(app: FastifyInstance, options: { coverage: CoverageService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { coverage } = options;
  api.get(
    '/moderations/coverage',
    { config: { access: 'admin' }, schema: { ...common, querystring: coverageQuery, response: { 200: coverageSummary, ...errors } } },
    (request) => coverage.summary(request.query.event_id),
  );
  api.get(
    '/moderations/coverage/reviews',
    {
      config: { access: 'admin' },
      schema: { ...common, querystring: coverageReviewsQuery, response: { 200: coverageReviewsPage, ...errors } },
    },
    ({ query }) => coverage.reviews(query.event_id, query.kind, { size: query.size, page: query.page }),
  );
  api.get(
    '/moderations/coverage/moderators',
    {
      config: { access: 'admin' },
      schema: { ...common, querystring: coverageModeratorsQuery, response: { 200: coverageModeratorsPage, ...errors } },
    },
    ({ query }) => coverage.moderators(query.event_id, { size: query.size, page: query.page }),
  );
  api.post(
    '/moderations/top-up',
    {
      config: { access: 'admin' },
      schema: { ...common, body: topUpParamsBody, response: { 200: topUpStats, ...errors, 409: errorBody } },
    },
    (request) => coverage.topUp(currentUser(request).id, request.body.top_up_params),
  );
}
