import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema/index';
import { AppError, badRequest, ValidationFailure } from '../errors';
import { addRouteHook } from './route-hooks';

/**
 * Idempotency keys (issue 29 item 1): a signed-in write sent with an `Idempotency-Key` header is done at most once
 * for that caller and key. The first request claims the key (a row with the request's fingerprint); its answer is
 * kept when it is final (2xx, and 4xx but 409 and 429: the same request would get the same answer); a retry with the
 * same key and the same request gets that answer again (`Idempotent-Replayed: true`), never a second write; the same
 * key with another request is refused (422); a retry while the first is still running gets 409 with Retry-After. A
 * claim whose request died (no answer after a minute) may be taken over. Keys are kept a day. An answer that is not
 * final (5xx, 409, 429) releases the key, so the retry runs for real.
 *
 * The offline queue of the web app sends one key per queued write; scripts may too.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,200}$/;
const KEEP_HOURS = 24;
const ABANDONED_SECONDS = 60;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const idempotencyMessages = {
  badKey: 'The Idempotency-Key header must be 8 to 200 letters, digits or _ . : - characters.',
  reused: 'This Idempotency-Key was already used for a different request.',
  inProgress: 'A request with this Idempotency-Key is still being processed. Try again in a moment.',
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key this request claimed, if any. */
    idempotencyClaim: { userId: number; key: string } | null;
  }
}

const fingerprint = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');

const isFinal = (status: number) => status < 500 && status !== 409 && status !== 429;

export function registerIdempotency(app: FastifyInstance, db: Db) {
  app.decorateRequest('idempotencyClaim', null);
  let claims = 0;

  // After validation (the body is known) and after authentication (the key belongs to the caller).
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || READ_METHODS.has(request.method) || !request.user) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !KEY_PATTERN.test(key)) throw badRequest(idempotencyMessages.badKey);
    const userId = request.user.id;
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const hash = fingerprint(request);

    claims += 1;
    if (claims % 500 === 0) {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
    }
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ userId, key, route, requestHash: hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [existing] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!existing) throw new AppError(409, idempotencyMessages.inProgress, { 'retry-after': '1' });
      if (existing.requestHash !== hash || existing.route !== route) {
        throw new ValidationFailure([
          { loc: ['header', 'idempotency-key'], msg: idempotencyMessages.reused, type: 'idempotency_key_reused' },
        ]);
      }
      if (existing.statusCode !== null) {
        return reply.code(existing.statusCode).header('idempotent-replayed', 'true').send(existing.response);
      }
      // Still running, unless its request died: then this one takes the claim over.
      const takenOver = await db
        .update(idempotencyKeys)
        .set({ createdAt: sql`now()` })
        .where(
          and(
            eq(idempotencyKeys.userId, userId),
            eq(idempotencyKeys.key, key),
            sql`${idempotencyKeys.statusCode} is null`,
            lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${ABANDONED_SECONDS})`),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      if (takenOver.length === 0) throw new AppError(409, idempotencyMessages.inProgress, { 'retry-after': '1' });
    }
    request.idempotencyClaim = { userId, key };
  };

  // The answer is kept with the claim (final answers), or the claim is released.
  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    const where = and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key));
    let body: unknown;
    try {
      body = typeof payload === 'string' ? JSON.parse(payload) : undefined;
    } catch {
      body = undefined;
    }
    if (isFinal(reply.statusCode) && body !== undefined) {
      await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, response: body }).where(where);
    } else {
      await db.delete(idempotencyKeys).where(where);
    }
    return payload;
  };

  // Only writes take keys: reads get neither hook (plugins/route-hooks).
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => READ_METHODS.has(method))) return;
    addRouteHook(route, 'preHandler', claim);
    addRouteHook(route, 'onSend', settle);
  });
}
