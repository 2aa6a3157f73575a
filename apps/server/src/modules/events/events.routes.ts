import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, pageQuery, paged, validationErrorBody } from '@cr/contract/common';
import {
  allocationConfigPublic,
  categoriesQuery,
  category,
  eventIdParams,
  eventPublic,
  eventUpdateBody,
  levelQualifiersBody,
  levelQualifiersPublic,
  newEventBody,
  reviewsConfigBody,
  reviewsConfigPublic,
  rowIdParams,
  statusConfigBody,
  statusConfigPublic,
} from '@cr/contract/events';
import { isAdmin } from '../../domain/rules';
import { currentUser } from '../../plugins/auth';
import type { EventsService } from './events.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 "Events, configs, categories", and the audit log of an event. */
export async function eventsRoutes(app: FastifyInstance, options: { events: EventsService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { events } = options;

  // ---- events ----
  api.get(
    '/events/',
    {
      config: { access: 'public' },
      schema: { tags: ['events'], querystring: pageQuery, response: { 200: paged(eventPublic), 422: validationErrorBody } },
    },
    (request) => events.list(request.query),
  );

  api.get('/events/current/', { config: { access: 'public' }, schema: { tags: ['events'], response: { 200: z.array(eventPublic) } } }, () =>
    events.current(),
  );

  api.get(
    '/events/:eventId/',
    { config: { access: 'public' }, schema: { tags: ['events'], params: eventIdParams, response: { 200: eventPublic, ...errors } } },
    (request) => events.get(request.params.eventId),
  );

  api.post(
    '/events/',
    { config: { access: 'admin' }, schema: { tags: ['events'], body: newEventBody, response: { 201: eventPublic, ...errors } } },
    async (request, reply) => reply.code(201).send(await events.create(currentUser(request).id, request.body.new_event)),
  );

  api.put(
    '/events/:row_id/',
    {
      config: { access: 'admin' },
      schema: { tags: ['events'], params: rowIdParams, body: eventUpdateBody, response: { 200: eventPublic, ...errors } },
    },
    (request) => events.update(currentUser(request).id, request.params.row_id, request.body.event_update),
  );

  // ---- configs ----
  // The general configuration is public: every visitor's stage badge and navigation are derived from it.
  api.get(
    '/configs/reviews/:eventId/',
    {
      config: { access: 'public' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: reviewsConfigPublic, ...errors } },
    },
    (request) => events.reviewsConfig(request.params.eventId),
  );

  api.put(
    '/configs/reviews/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: reviewsConfigBody, response: { 200: reviewsConfigPublic, ...errors } },
    },
    (request) => events.putReviewsConfig(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  api.get(
    '/configs/reviews-level-qualifiers/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: levelQualifiersPublic, ...errors } },
    },
    (request) => events.levelQualifiers(request.params.eventId),
  );

  api.put(
    '/configs/reviews-level-qualifiers/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: levelQualifiersBody, response: { 200: levelQualifiersPublic, ...errors } },
    },
    (request) => events.putLevelQualifiers(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  api.get(
    '/configs/allocations/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: allocationConfigPublic, ...errors } },
    },
    (request) => events.allocationConfig(request.params.eventId),
  );

  // Everyone sees the active messages; an admin (who edits them) gets every message.
  api.get(
    '/configs/status/',
    { config: { access: 'public' }, schema: { tags: ['configs'], response: { 200: statusConfigPublic } } },
    (request) => events.status({ activeOnly: !isAdmin(request.user) }),
  );

  api.put(
    '/configs/status/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], body: statusConfigBody, response: { 200: statusConfigPublic, ...errors } },
    },
    (request) => events.putStatus(currentUser(request).id, request.body.record_update.messages),
  );

  // ---- categories ----
  api.get(
    '/categories/',
    {
      config: { access: 'public' },
      schema: { tags: ['categories'], querystring: categoriesQuery, response: { 200: z.array(category), 422: validationErrorBody } },
    },
    (request) => events.categories(request.query.event_id),
  );
}
