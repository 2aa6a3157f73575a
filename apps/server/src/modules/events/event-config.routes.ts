import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import {
  allocationConfigPublic,
  eventIdParams,
  levelQualifiersBody,
  levelQualifiersPublic,
  reviewsConfigBody,
  reviewsConfigPublic,
} from '@cr/contract/events';
import { appealsConfigBody, appealsConfigPublic } from '@cr/contract/appeals';
import { remindersConfigBody, remindersConfigPublic } from '@cr/contract/notifications';
import { currentUser } from '../../plugins/auth';
import type { EventConfigService } from './event-config.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 "Configs" of an event: the reviews configuration, the level qualifiers and the allocation flags. */
export async function eventConfigRoutes(app: FastifyInstance, options: { eventConfig: EventConfigService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { eventConfig } = options;

  // The general configuration is public: every visitor's stage badge and navigation are derived from it.
  api.get(
    '/configs/reviews/:eventId/',
    {
      config: { access: 'public' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: reviewsConfigPublic, ...errors } },
    },
    (request) => eventConfig.reviewsConfig(request.params.eventId),
  );

  api.put(
    '/configs/reviews/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: reviewsConfigBody, response: { 200: reviewsConfigPublic, ...errors } },
    },
    (request) => eventConfig.putReviewsConfig(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  api.get(
    '/configs/reviews-level-qualifiers/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: levelQualifiersPublic, ...errors } },
    },
    (request) => eventConfig.levelQualifiers(request.params.eventId),
  );

  api.put(
    '/configs/reviews-level-qualifiers/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: levelQualifiersBody, response: { 200: levelQualifiersPublic, ...errors } },
    },
    (request) => eventConfig.putLevelQualifiers(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  // Deadline reminders (issue 27): whether the review and moderation windows' reminders are sent, and when.
  api.get(
    '/configs/notifications/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: remindersConfigPublic, ...errors } },
    },
    (request) => eventConfig.remindersConfig(request.params.eventId),
  );

  api.put(
    '/configs/notifications/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: remindersConfigBody, response: { 200: remindersConfigPublic, ...errors } },
    },
    (request) => eventConfig.putRemindersConfig(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  // Appeals (issue 28 item 2): whether reviewers may appeal an exclusion, for how many days, and how many decide.
  api.get(
    '/configs/appeals/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: appealsConfigPublic, ...errors } },
    },
    (request) => eventConfig.appealsConfig(request.params.eventId),
  );

  api.put(
    '/configs/appeals/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, body: appealsConfigBody, response: { 200: appealsConfigPublic, ...errors } },
    },
    (request) => eventConfig.putAppealsConfig(currentUser(request).id, request.params.eventId, request.body.record_update),
  );

  api.get(
    '/configs/allocations/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], params: eventIdParams, response: { 200: allocationConfigPublic, ...errors } },
    },
    (request) => eventConfig.allocationConfig(request.params.eventId),
  );
}
