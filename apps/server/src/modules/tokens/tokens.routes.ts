import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, validationErrorBody } from '@cr/contract/common';
import { apiTokenIdParams, apiTokenPublic, createdApiToken, newApiTokenBody } from '@cr/contract/tokens';
import { activeUser, currentUser } from '../../plugins/auth';
import type { TokensService } from './tokens.service';

const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: validationErrorBody };
const tags = ['tokens'];
const security = [{ bearer: [] }];

/**
 * Issue 29 item 3: the caller's personal API tokens. Only a signed-in session manages them (`scope: 'none'`): a token
 * never makes or revokes tokens.
 */
export async function tokensRoutes(app: FastifyInstance, options: { tokens: TokensService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { tokens } = options;

  api.get(
    '/users/me/tokens/',
    {
      config: { access: 'user', scope: 'none' },
      schema: { tags, security, response: { 200: z.array(apiTokenPublic), ...errors } },
    },
    (request) => tokens.list(currentUser(request)),
  );
  api.post(
    '/users/me/tokens/',
    {
      config: { access: 'user', scope: 'none' },
      schema: { tags, security, body: newApiTokenBody, response: { 201: createdApiToken, ...errors } },
    },
    async (request, reply) => reply.code(201).send(await tokens.create(activeUser(request), request.body.new_api_token)),
  );
  api.delete(
    '/users/me/tokens/:id/',
    {
      config: { access: 'user', scope: 'none' },
      schema: { tags, security, params: apiTokenIdParams, response: { 200: apiTokenPublic, ...errors } },
    },
    (request) => tokens.revoke(currentUser(request), request.params.id),
  );
}
