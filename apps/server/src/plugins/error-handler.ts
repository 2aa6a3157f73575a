import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { renderValidationMessage } from '@cr/contract/messages';
import type { ValidationErrorItem } from '@cr/contract/common';
import { databaseUnavailable } from '../db/errors';
import { AppError, DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableMessage, fieldLabel, ValidationFailure } from '../errors';

const CONTEXT_LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function toLocation(context: string | undefined, instancePath: string): (string | number)[] {
  const segments = instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment.replace(/~1/g, '/').replace(/~0/g, '~')));
  return [CONTEXT_LOCATION[context ?? 'body'] ?? 'body', ...segments];
}

export const invalidJsonMessage = 'The request body is not valid JSON.';
export const prototypeKeyMessage = 'The request body may not use the key "__proto__", nor a "constructor" key holding "prototype".';

/**
 * One error handler for the API (ARCHITECTURE.md): `{ message }` for every error, 422 with `detail` items for
 * validation failures, 503 while the database is away, and a 5xx that never leaks internals.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail: ValidationErrorItem[] = error.validation.map((issue) => {
        const loc = toLocation(error.validationContext, issue.instancePath);
        return { loc, msg: renderValidationMessage(issue.message ?? 'Invalid value.', fieldLabel(loc)), type: issue.keyword };
      });
      return reply.code(422).send({ detail });
    }
    if (error instanceof ValidationFailure) return reply.code(422).send({ detail: error.detail });
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ message: 'The request body is too large.' });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ message: 'This content type is not supported here.' });
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({ message: invalidJsonMessage });
    }
    // The database is away (restarting, failing over, unreachable): a clear 503 the client may retry, not a 500.
    if (databaseUnavailable(error)) {
      request.log.warn(
        { err: { message: error.message, code: (error.cause as { code?: string } | undefined)?.code } },
        'database unavailable',
      );
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ message: databaseUnavailableMessage });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'An unexpected error occurred.' });
    }
    return reply.code(status).send({ message: error.message });
  });
}
