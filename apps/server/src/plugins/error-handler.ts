import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DEFAULT_LANGUAGE } from '@cr/contract/languages';
import { renderValidationMessage } from '@cr/contract/messages';
import type { ValidationErrorItem } from '@cr/contract/common';
import { databaseUnavailable } from '../db/errors';
import { AppError, DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableMessage, fieldLabel, ValidationFailure } from '../errors';
import { renderValidationIn, requestLanguage, translateMessage } from '../lib/i18n';

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
 * One error handler for the API (docs/architecture.md, "The request path"): `{ message }` for every error, 422 with `detail` items for
 * validation failures, 503 while the database is away, and a 5xx that never leaks internals; the texts in the
 * request's language (issue 31, lib/i18n.ts).
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Issue 31: the message in the request's language (Accept-Language es or ja); English otherwise, untouched.
    const language = requestLanguage(request.headers);
    if (language !== DEFAULT_LANGUAGE) void reply.header('content-language', language);
    const say = (message: string) => translateMessage(message, language);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail: ValidationErrorItem[] = error.validation.map((issue) => {
        const loc = toLocation(error.validationContext, issue.instancePath);
        const msg =
          language === DEFAULT_LANGUAGE
            ? renderValidationMessage(issue.message ?? 'Invalid value.', fieldLabel(loc))
            : renderValidationIn(language, issue.message ?? 'Invalid value.', fieldLabel(loc));
        return { loc, msg, type: issue.keyword };
      });
      return reply.code(422).send({ detail });
    }
    if (error instanceof ValidationFailure) {
      const detail = language === DEFAULT_LANGUAGE ? error.detail : error.detail.map((item) => ({ ...item, msg: say(item.msg) }));
      return reply.code(422).send({ detail });
    }
    if (error instanceof AppError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: say(error.message) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ message: say('The request body is too large.') });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ message: say('This content type is not supported here.') });
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.code(400).send({ message: say(invalidJsonMessage) });
    }
    // The database is away (restarting, failing over, unreachable): a clear 503 the client may retry, not a 500.
    if (databaseUnavailable(error)) {
      request.log.warn(
        { err: { message: error.message, code: (error.cause as { code?: string } | undefined)?.code } },
        'database unavailable',
      );
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: say(databaseUnavailableMessage) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: say('An unexpected error occurred.') });
    }
    return reply.code(status).send({ message: say(error.message) });
  });
}
