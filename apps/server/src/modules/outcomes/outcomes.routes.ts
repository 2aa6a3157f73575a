import { errorBody, validationErrorBody } from '@cr/contract/common';
import { outcomeParamsBody, outcomeStats, scoreParamsBody, scoreResult } from '@cr/contract/outcomes';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/auth';
import type { ProposalScoresService } from './proposal-scores.service';
import type { ReviewOutcomesService } from './review-outcomes.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/**
 * Spec §7 `POST proposal-reviews/generate-results` (G-005) and `POST proposals/generate-results` (G-014), both with
 * `results_params`: the review outcomes and proposal scores runs, admins only.
 */
export async function outcomesRoutes(app: FastifyInstance, options: { outcomes: ReviewOutcomesService; scores: ProposalScoresService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/proposal-reviews/generate-results',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reviews'],
        security: [{ bearer: [] }],
        body: outcomeParamsBody,
        response: { 200: outcomeStats, ...errors },
      },
    },
    (request) => options.outcomes.generate(currentUser(request).id, request.body.results_params),
  );
  api.post(
    '/proposals/generate-results',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['proposals'],
        security: [{ bearer: [] }],
        body: scoreParamsBody,
        response: { 200: scoreResult, ...errors },
      },
    },
    (request) => options.scores.generate(currentUser(request).id, request.body.results_params),
  );
}
