import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import { mailQueueOverview, retryFailedMailsAnswer, retryFailedMailsBody } from '@cr/contract/mail';
import { currentUser } from '../../plugins/auth';
import type { MailQueueService } from './mail-queue.service';

const errors = { 401: errorBody, 403: errorBody, 422: validationErrorBody };

/** `GET admin/mail-queue/` and `POST admin/mail-queue/retry` (issue 27): admins only. */
export async function mailQueueRoutes(app: FastifyInstance, options: { mailQueue: MailQueueService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/admin/mail-queue/',
    { config: { access: 'admin' }, schema: { tags: ['admin'], response: { 200: mailQueueOverview, ...errors } } },
    () => options.mailQueue.overview(),
  );

  api.post(
    '/admin/mail-queue/retry',
    {
      config: { access: 'admin' },
      schema: { tags: ['admin'], body: retryFailedMailsBody, response: { 200: retryFailedMailsAnswer, 404: errorBody, ...errors } },
    },
    (request) => options.mailQueue.retryFailed(currentUser(request).id, request.body.retry_failed),
  );
}
