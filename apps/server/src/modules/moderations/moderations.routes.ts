import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, paged, pageQuery, validationErrorBody, type PageQuery } from '@cr/contract/common';
import { moderationIdParams, moderationPublic, moderationUpdateBody, newModerationBody, reviewIdParams } from '@cr/contract/moderations';
import { moderationVersionsOfReview } from '@cr/contract/history';
import { reviewPublic } from '@cr/contract/reviews';
import { pagedJson, sendJsonText } from '../../lib/json-text';
import { currentUser, type AuthUser } from '../../plugins/auth';
import type { ReviewsService } from '../reviews/reviews.service';
import type { ModerationsService } from './moderations.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['moderations'];
const security = [{ bearer: [] }];

/**
 * Spec §7 "Moderations" (`moderations/`, `moderations/{id}/`, `moderations/by-review/{review_id}/`) and the
 * moderator's lists of §2.14 (`proposal-reviews/allocated/`, `proposal-reviews/moderated/` and the reference API's
 * `…/count/` variants). The static list paths win over `proposal-reviews/:id/` in the router whatever the order.
 */
export async function moderationsRoutes(app: FastifyInstance, options: { moderations: ModerationsService; reviews: ReviewsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { moderations, reviews } = options;
  /**
   * The moderator's list (reviews service `moderatorPageJson`: the page's ids and total, then its answers written by
   * PostgreSQL), sent as that text, like the reviews lists (reviews.routes).
   */
  const moderatorList = async (user: AuthUser, which: 'allocated' | 'moderated', query: PageQuery) => {
    const { data, total } = await reviews.moderatorPageJson(user, which, query);
    return pagedJson(data, total, query);
  };

  api.get(
    '/proposal-reviews/allocated/',
    { config: { access: 'user' }, schema: { tags, security, querystring: pageQuery, response: { 200: paged(reviewPublic), ...errors } } },
    async (request, reply) => sendJsonText(reply, await moderatorList(currentUser(request), 'allocated', request.query)),
  );
  api.get(
    '/proposal-reviews/allocated/count/',
    { config: { access: 'user' }, schema: { tags, security, response: { 200: z.number().int(), ...errors } } },
    (request) => moderations.allocatedCount(currentUser(request)),
  );
  api.get(
    '/proposal-reviews/moderated/',
    { config: { access: 'user' }, schema: { tags, security, querystring: pageQuery, response: { 200: paged(reviewPublic), ...errors } } },
    async (request, reply) => sendJsonText(reply, await moderatorList(currentUser(request), 'moderated', request.query)),
  );
  api.get(
    '/proposal-reviews/moderated/count/',
    { config: { access: 'user' }, schema: { tags, security, response: { 200: z.number().int(), ...errors } } },
    (request) => moderations.moderatedCount(currentUser(request)),
  );

  api.post(
    '/moderations/',
    {
      config: { access: 'user', scope: 'moderate' },
      schema: { tags, security, body: newModerationBody, response: { 201: moderationPublic, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await moderations.create(currentUser(request), request.body.new_moderation)),
  );
  api.get(
    '/moderations/by-review/:review_id/',
    { config: { access: 'public' }, schema: { tags, params: reviewIdParams, response: { 200: z.array(moderationPublic), ...errors } } },
    (request) =>
      moderations.byReview(request.user, request.params.review_id, reviews.visibleEventOf(request.user, request.params.review_id)),
  );
  // Issue 28 item 3: the versions of the review's moderations (admins: all; a moderator: their own).
  api.get(
    '/moderations/by-review/:review_id/versions/',
    {
      config: { access: 'user' },
      schema: { tags, security, params: reviewIdParams, response: { 200: moderationVersionsOfReview, ...errors } },
    },
    (request) =>
      moderations.versionsOfReview(
        currentUser(request),
        request.params.review_id,
        reviews.visibleEventOf(request.user, request.params.review_id),
      ),
  );
  api.get(
    '/moderations/:id/',
    { config: { access: 'public' }, schema: { tags, params: moderationIdParams, response: { 200: moderationPublic, ...errors } } },
    (request) => moderations.get(request.user, request.params.id),
  );
  api.put(
    '/moderations/:id/',
    {
      config: { access: 'user', scope: 'moderate' },
      schema: { tags, security, params: moderationIdParams, body: moderationUpdateBody, response: { 200: moderationPublic, ...errors } },
    },
    (request) => moderations.update(currentUser(request), request.params.id, request.body.record_update),
  );
  api.delete(
    '/moderations/:id/',
    {
      config: { access: 'user', scope: 'moderate' },
      schema: { tags, security, params: moderationIdParams, response: { 200: z.object({ row_id: z.number().int() }), ...errors } },
    },
    (request) => moderations.remove(currentUser(request), request.params.id),
  );
}
