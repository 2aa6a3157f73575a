import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { requiredScope, type Access, type RouteScope } from './auth';

const apiTokenDescription =
  'A personal API token (issue 29), made on the profile: `Authorization: Bearer crpat_…`. Each operation names the ' +
  'scope it needs in `x-api-token-scope` (read, review, moderate, admin-read); `none` means no token may call it.';

/** OpenAPI description generated from the contract's schemas, served at `<apiBase>/docs`. */
export async function registerSwagger(app: FastifyInstance, apiBase: string) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Community Review API', version: '0.1.0', description: 'Reviews, moderation and funding rounds.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiToken: { type: 'http', scheme: 'bearer', bearerFormat: 'crpat', description: apiTokenDescription },
        },
      },
    },
    // Each operation says which token scope it needs, and lists the token among its schemes when one may call it.
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const config = (input.route.config ?? {}) as { access?: Access; scope?: RouteScope };
      const method = [input.route.method].flat()[0] ?? 'GET';
      const scope = requiredScope(method, config.access, config.scope);
      const schema: Record<string, unknown> = { ...output.schema, 'x-api-token-scope': scope };
      if (scope !== 'none' && config.access && config.access !== 'public') schema.security = [{ bearer: [] }, { apiToken: [] }];
      return { ...output, schema };
    },
  });
  await app.register(swaggerUi, { routePrefix: `${apiBase}/docs` });
}
