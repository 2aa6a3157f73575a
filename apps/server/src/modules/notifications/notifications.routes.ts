import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import {
  notificationPreferences,
  notificationPreferencesBody,
  oneClickBody,
  unsubscribeQuery,
  unsubscribeState,
} from '@cr/contract/notifications';
import { currentUser } from '../../plugins/auth';
import { UNSUBSCRIBE_PATH, type NotificationsService } from './notifications.service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 422: validationErrorBody };
/** RFC 8058 allows the one-click POST as multipart/form-data too; its body is one short field. */
const ONE_CLICK_BODY_LIMIT = 4096;

/**
 * The caller's notification preferences, and the one-click unsubscribe (RFC 8058) that needs no login: the link's
 * signed token names the person and the kind. GET reads what the link would do (the web screen asks first), POST
 * unsubscribes (what a mail client sends for `List-Unsubscribe-Post`), DELETE undoes it.
 */
export async function notificationsRoutes(app: FastifyInstance, options: { notifications: NotificationsService; publicUrl: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = options;
  const tags = ['notifications'];

  api.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT }, (_request, body, done) => {
    // The one field a one-click POST carries; anything else is no one-click request (and the schema says so).
    const oneClick = /name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/.test(String(body));
    done(null, oneClick ? { 'List-Unsubscribe': 'One-Click' } : { 'List-Unsubscribe': 'not one-click' });
  });

  api.get(
    '/users/me/notifications/',
    { config: { access: 'user' }, schema: { tags, response: { 200: notificationPreferences, ...errors } } },
    (request) => notifications.preferences(currentUser(request).id),
  );

  api.put(
    '/users/me/notifications/',
    {
      config: { access: 'user' },
      schema: { tags, body: notificationPreferencesBody, response: { 200: notificationPreferences, ...errors } },
    },
    (request) => notifications.updatePreferences(currentUser(request).id, request.body.notification_preferences),
  );

  api.get(
    UNSUBSCRIBE_PATH,
    { config: { access: 'public' }, schema: { tags, querystring: unsubscribeQuery, response: { 200: unsubscribeState, ...errors } } },
    async (request, reply) => {
      // A mail client without one-click support opens the header's address in a browser: show the web screen.
      if (request.headers.accept?.includes('text/html')) {
        return reply.redirect(`${options.publicUrl.replace(/\/+$/, '')}/unsubscribe?token=${encodeURIComponent(request.query.token)}`, 303);
      }
      return notifications.unsubscribeState(request.query.token);
    },
  );

  api.post(
    UNSUBSCRIBE_PATH,
    {
      config: { access: 'public' },
      schema: { tags, querystring: unsubscribeQuery, body: oneClickBody, response: { 200: unsubscribeState, ...errors } },
    },
    (request) => notifications.unsubscribe(request.query.token),
  );

  api.delete(
    UNSUBSCRIBE_PATH,
    { config: { access: 'public' }, schema: { tags, querystring: unsubscribeQuery, response: { 200: unsubscribeState, ...errors } } },
    (request) => notifications.resubscribe(request.query.token),
  );
}
