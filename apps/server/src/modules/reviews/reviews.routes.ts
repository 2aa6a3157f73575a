import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, paged, validationErrorBody } from '@cr/contract/common';
import { reviewVersions } from '@cr/contract/history';
import { proposalIdParams } from '@cr/contract/proposals';
import {
  byIdsQuery,
  newProposalReviewBody,
  proposalReviewUpdateBody,
  reviewIdParams,
  reviewPublic,
  reviewsCountQuery,
  reviewsFilterQuery,
} from '@cr/contract/reviews';
import { currentUser } from '../../plugins/auth';
import type { ReviewsService } from './reviews.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['reviews'];

/** Spec §7 "Reviews" under `proposal-reviews/` (DOMAIN.md "Reference"), and the viewer's own review of a proposal. */
export async function reviewsRoutes(app: FastifyInstance, options: { reviews: ReviewsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { reviews } = options;

  api.get(
    '/proposal-reviews/',
    {
      config: { access: 'public' },
      schema: { tags, querystring: reviewsFilterQuery, response: { 200: paged(reviewPublic), 422: validationErrorBody } },
    },
    (request) => reviews.filtered(request.user, request.query),
  );
  api.get(
    '/proposal-reviews/filtered',
    {
      config: { access: 'public' },
      schema: { tags, querystring: reviewsFilterQuery, response: { 200: paged(reviewPublic), 422: validationErrorBody } },
    },
    (request) => reviews.filtered(request.user, request.query),
  );
  // The reference API's counts (issue 17): how many reviews the same filters find.
  for (const url of ['/proposal-reviews/count/', '/proposal-reviews/filtered/count/']) {
    api.get(
      url,
      {
        config: { access: 'public' },
        schema: { tags, querystring: reviewsCountQuery, response: { 200: z.number().int(), 422: validationErrorBody } },
      },
      (request) => reviews.count(request.user, request.query),
    );
  }
  api.get(
    '/proposal-reviews/by-ids/',
    {
      config: { access: 'public' },
      schema: { tags, querystring: byIdsQuery, response: { 200: z.array(reviewPublic), 422: validationErrorBody } },
    },
    (request) => reviews.byIds(request.user, request.query.ids),
  );
  api.get(
    '/proposal-reviews/:id/',
    { config: { access: 'public' }, schema: { tags, params: reviewIdParams, response: { 200: reviewPublic, ...errors } } },
    (request) => reviews.get(request.user, request.params.id),
  );
  api.post(
    '/proposal-reviews/',
    {
      config: { access: 'user', scope: 'review' },
      schema: { tags, security: [{ bearer: [] }], body: newProposalReviewBody, response: { 201: reviewPublic, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await reviews.create(currentUser(request), request.body.new_proposal_review)),
  );
  api.put(
    '/proposal-reviews/:id/',
    {
      config: { access: 'user', scope: 'review' },
      schema: {
        tags,
        security: [{ bearer: [] }],
        params: reviewIdParams,
        body: proposalReviewUpdateBody,
        response: { 200: reviewPublic, ...errors },
      },
    },
    (request) => reviews.update(currentUser(request), request.params.id, request.body.proposal_review_update),
  );
  api.delete(
    '/proposal-reviews/:id/',
    {
      config: { access: 'user', scope: 'review' },
      schema: {
        tags,
        security: [{ bearer: [] }],
        params: reviewIdParams,
        response: { 200: z.object({ row_id: z.number().int() }), ...errors },
      },
    },
    (request) => reviews.remove(currentUser(request), request.params.id),
  );
  // Issue 28 item 3: the review's versions, to admins (a deleted review's too) and to its author.
  api.get(
    '/proposal-reviews/:id/versions/',
    {
      config: { access: 'user' },
      schema: { tags, security: [{ bearer: [] }], params: reviewIdParams, response: { 200: reviewVersions, ...errors } },
    },
    (request) => reviews.versions(currentUser(request), request.params.id),
  );
  api.get(
    '/proposals/:id/submitted-review/',
    {
      config: { access: 'user' },
      schema: { tags, security: [{ bearer: [] }], params: proposalIdParams, response: { 200: reviewPublic, ...errors } },
    },
    (request) => reviews.submittedReview(currentUser(request), request.params.id),
  );
}
