import type { FastifyReply } from 'fastify';

/**
 * Sends JSON that is already written (by PostgreSQL, for the hottest lists) as it is: with a JSON content type and a
 * string, Fastify runs no serializer, so the text is neither parsed nor written again. The route's response schema
 * still documents the answer (a typed reply accepts only its object, hence the cast); API tests check the text
 * against the schema.
 */
export function sendJsonText(reply: { type(contentType: string): unknown }, json: string): FastifyReply {
  return (reply as FastifyReply).type('application/json; charset=utf-8').send(json);
}

/** A paged answer (contract `paged`) around a JSON array already written (by PostgreSQL). */
export const pagedJson = (data: string, total: number, page: { size: number; page: number }) =>
  `{"data":${data},"page":${JSON.stringify({ total, size: page.size, page: page.page })}}`;
