import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, pageQuery, paged, validationErrorBody } from '@cr/contract/common';
import { categoriesQuery, category, eventIdParams, eventPublic, eventUpdateBody, newEventBody, rowIdParams } from '@cr/contract/events';
import { currentUser } from '../../plugins/auth';
import type { EventsService } from './events.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 "Events" and "Categories". An event's configuration: event-config.routes.ts. */
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

  // The reference API's count of events (issue 17).
  api.get(
    '/events/count/',
    { config: { access: 'public' }, schema: { tags: ['events'], response: { 200: z.number().int() } } },
    async () => (await events.list({ size: 1, page: 0 })).page.total,
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

  // ---- categories ----
  api.get(
    '/categories/',
    {
      config: { access: 'public' },
      schema: { tags: ['categories'], querystring: categoriesQuery, response: { 200: z.array(category), 422: validationErrorBody } },
    },
    (request) => events.categories(request.query.event_id),
  );

  // ---- the reference API's "current event" (issue 17) ----
  // The newest active event. Making an event current makes it active (audited as an event update); the spec allows
  // several current events (§7 `events/current/`), so the others stay as they are.
  const currentEventPublic = z.object({
    row_id: z.number().int(),
    config_type: z.literal('current_event'),
    value: z.number().int().optional(),
  });
  api.get(
    '/configs/current-event/',
    { config: { access: 'public' }, schema: { tags: ['configs'], response: { 200: currentEventPublic } } },
    async () => {
      const newest = (await events.current()).reduce<number | undefined>((max, event) => Math.max(max ?? 0, event.row_id), undefined);
      return { row_id: newest ?? 0, config_type: 'current_event' as const, ...(newest === undefined ? {} : { value: newest }) };
    },
  );
  api.put(
    '/configs/current-event/:eventId/',
    {
      config: { access: 'admin' },
      schema: { tags: ['configs'], security: [{ bearer: [] }], params: eventIdParams, response: { 201: currentEventPublic, ...errors } },
    },
    async (request, reply) => {
      const event = await events.fresh(request.params.eventId);
      if (!event.active) await events.update(currentUser(request).id, event.row_id, { ...event, active: true });
      return reply.code(201).send({ row_id: event.row_id, config_type: 'current_event' as const, value: event.row_id });
    },
  );
}
