import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@cr/contract/common';
import { notFound } from '../../errors';
import type { VerificationService } from './verification.service';

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * The verification provider's webhook (reference API `POST /api/sumsub/webhook/`). Public, but only a body signed
 * with the shared secret is acted on; with verification off the route answers 404.
 */
export async function verificationRoutes(app: FastifyInstance, options: { verification: VerificationService }) {
  // The signature covers the exact bytes sent, so this route reads the body raw and parses it itself.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/sumsub/webhook/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['verification'],
        headers: z.object({ 'x-payload-digest-alg': z.string().optional(), 'x-payload-digest': z.string().optional() }),
        response: { 201: z.object({ applied: z.boolean() }), 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      if (!options.verification.enabled) throw notFound();
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const result = await options.verification.handleWebhook(rawBody, {
        algorithm: header(request.headers['x-payload-digest-alg']),
        digest: header(request.headers['x-payload-digest']),
      });
      return reply.code(201).send(result);
    },
  );
}
