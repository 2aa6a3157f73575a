import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import { invitationAnswerBody, invitationBody, newSubscriptionBody } from '@cr/contract/subscriptions';
import { subscriptionPublic } from '@cr/contract/users';
import { activeUser, currentUser } from '../../plugins/auth';
import type { InvitationsService } from './invitations.service';
import type { SubscriptionsService } from './subscriptions.service';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };

/** Spec §7 "Subscriptions". */
export async function subscriptionsRoutes(
  app: FastifyInstance,
  options: { subscriptions: SubscriptionsService; invitations: InvitationsService },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/subscriptions/',
    {
      config: { access: 'user' },
      schema: { tags: ['subscriptions'], body: newSubscriptionBody, response: { 201: z.array(subscriptionPublic), ...errors } },
    },
    async (request, reply) =>
      reply.code(201).send(await options.subscriptions.subscribe(activeUser(request).id, request.body.new_subscription)),
  );

  api.post(
    '/subscriptions/invitation',
    {
      config: { access: 'user' },
      schema: { tags: ['subscriptions'], body: invitationAnswerBody, response: { 200: z.array(subscriptionPublic), ...errors } },
    },
    (request) => options.invitations.answerInvitation(activeUser(request).id, request.body.invitation_answer),
  );

  api.post(
    '/subscriptions/invite',
    {
      config: { access: 'admin' },
      schema: { tags: ['subscriptions'], body: invitationBody, response: { 201: z.array(subscriptionPublic), ...errors } },
    },
    async (request, reply) => reply.code(201).send(await options.invitations.invite(currentUser(request).id, request.body.invitation)),
  );
}
