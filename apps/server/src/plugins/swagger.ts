import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI description generated from the contract's schemas, served at `<apiBase>/docs`. */
export async function registerSwagger(app: FastifyInstance, apiBase: string) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Community Review API', version: '0.1.0', description: 'Reviews, moderation and funding rounds.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: `${apiBase}/docs` });
}
