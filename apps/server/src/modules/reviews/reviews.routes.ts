import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, paged, validationErrorBody } from '@cr/contract/common';
import { reviewVersions } from '@cr/contract/history';
import { proposalIdParams } from '@cr/contract/proposals';
import { DEFAULT_LANGUAGE } from '@cr/contract/languages';
import { reviewFileQuery, reviewFileResult, reviewFileUploadBody } from '@cr/contract/review-files';
import {
  byIdsQuery,
  newProposalReviewBody,
  proposalReviewUpdateBody,
  reviewIdParams,
  reviewPublic,
  reviewsCountQuery,
  reviewsFilterQuery,
} from '@cr/contract/reviews';
import { requestLanguage, translateMessage } from '../../lib/i18n';
import { sendJsonText } from '../../lib/json-text';
import { currentUser } from '../../plugins/auth';
import type { ReviewFilesService } from './review-files.service';
import type { ReviewsService } from './reviews.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['reviews'];

/**
 * Spec §7 "Reviews" under `proposal-reviews/` (DOMAIN.md "Reference"), and the viewer's own review of a proposal. The
 * lists send JSON.stringify of their answers, whose fields are in the schema's order (service toReviewPublic): the
 * text the schema's serializer would write, without checking 25 reviews against it again on every request; the API
 * tests check the answers against the schema.
 */
export async function reviewsRoutes(app: FastifyInstance, options: { reviews: ReviewsService; reviewFiles: ReviewFilesService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { reviews, reviewFiles } = options;

  // Issue 29 item 2: the caller's allocation as a file to review offline, and the filled file back.
  api.get(
    '/proposal-reviews/review-file/',
    { config: { access: 'user' }, schema: { tags, security: [{ bearer: [] }], querystring: reviewFileQuery } },
    async (request, reply) => {
      const file = await reviewFiles.download(currentUser(request));
      if (request.query.format === 'markdown') {
        return reply
          .type('text/markdown; charset=utf-8')
          .header('content-disposition', 'attachment; filename="my-allocation.md"')
          .send(reviewFiles.markdown(file));
      }
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', 'attachment; filename="my-allocation.json"')
        .send(JSON.stringify(file, null, 2));
    },
  );
  api.post(
    '/proposal-reviews/review-file/',
    {
      // A filled file of a large allocation is bigger than a form: 500 reviews with long notes.
      bodyLimit: 16 * 1024 * 1024,
      config: { access: 'user', scope: 'review' },
      schema: { tags, security: [{ bearer: [] }], body: reviewFileUploadBody, response: { 200: reviewFileResult, ...errors } },
    },
    async (request) => {
      const result = await reviewFiles.upload(currentUser(request), request.body.review_file, request.body.dry_run);
      // Issue 31: the per-entry messages in the request's language, like the error answers'.
      const language = requestLanguage(request.headers);
      if (language === DEFAULT_LANGUAGE) return result;
      const translated = <T extends { message: string }>(items: T[]) =>
        items.map((item) => ({ ...item, message: translateMessage(item.message, language) }));
      return { ...result, conflicts: translated(result.conflicts), errors: translated(result.errors), refused: translated(result.refused) };
    },
  );

  api.get(
    '/proposal-reviews/',
    {
      config: { access: 'public' },
      schema: { tags, querystring: reviewsFilterQuery, response: { 200: paged(reviewPublic), 422: validationErrorBody } },
    },
    async (request, reply) => sendJsonText(reply, await reviews.filteredJson(request.user, request.query)),
  );
  api.get(
    '/proposal-reviews/filtered',
    {
      config: { access: 'public' },
      schema: { tags, querystring: reviewsFilterQuery, response: { 200: paged(reviewPublic), 422: validationErrorBody } },
    },
    async (request, reply) => sendJsonText(reply, await reviews.filteredJson(request.user, request.query)),
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
    async (request, reply) => sendJsonText(reply, await reviews.byIdsJson(request.user, request.query.ids)),
  );
  api.get(
    '/proposal-reviews/:id/',
    { config: { access: 'public' }, schema: { tags, params: reviewIdParams, response: { 200: reviewPublic, ...errors } } },
    async (request, reply) => sendJsonText(reply, await reviews.getJson(request.user, request.params.id)),
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
