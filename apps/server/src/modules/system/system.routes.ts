import { createHash, timingSafeEqual } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, paged, validationErrorBody } from '@cr/contract/common';
import { auditActions, auditQuery } from '@cr/contract/history';
import { auditEntry } from '@cr/contract/events';
import { auditChainStatus } from '@cr/contract/open-data';
import { healthz, livez } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema/index';
import { isAdmin } from '../../domain/rules';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableMessage, forbidden, unauthorized } from '../../errors';
import { requestLanguage, translateMessage } from '../../lib/i18n';
import type { AuditService } from './audit.service';

/** How long readiness waits for the database's answer before it calls the database away. */
const READINESS_TIMEOUT_MS = 2_000;

/** Whether the database answers `select 1` within READINESS_TIMEOUT_MS. */
async function databaseAnswers(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([db.execute(sql`select 1`).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness probe shared by the calls that arrive while it runs: one `select 1` answers them all (a load balancer's
 * or a monitor's burst of checks costs the database one connection and one statement), and every call still gets an
 * answer from a probe that ended after it arrived or was running when it did — never a remembered one.
 */
export function sharedProbe(probe: () => Promise<boolean>): () => Promise<boolean> {
  let running: Promise<boolean> | undefined;
  return () =>
    (running ??= probe().finally(() => {
      running = undefined;
    }));
}

/**
 * `GET healthz` and `GET readyz` (readiness, for a load balancer): 200 when the server and its database are up, 503
 * with a clear message while the database is away. `GET livez` (liveness): 200 while the process serves requests,
 * whatever the database does, so that an orchestrator restarts only a hung process, never every instance at once
 * because their shared database is away.
 */
export async function healthRoutes(app: FastifyInstance, options: { db: Db }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const probe = sharedProbe(() => databaseAnswers(options.db));
  const ready = async (request: FastifyRequest, reply: FastifyReply) => {
    if (await probe()) return { status: 'ok' as const, database: 'ok' as const };
    const message = translateMessage(databaseUnavailableMessage, requestLanguage(request.headers));
    return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ message });
  };
  const schema = { tags: ['system'], response: { 200: healthz, 503: errorBody } };
  api.get('/healthz', { config: { access: 'public' }, schema }, ready);
  api.get('/readyz', { config: { access: 'public' }, schema }, ready);
  // Liveness answers while the server sheds load (plugins/overload.ts): busy is not dead.
  api.get(
    '/livez',
    { config: { access: 'public', pressureHandler: () => undefined }, schema: { tags: ['system'], response: { 200: livez } } },
    () => ({
      status: 'ok' as const,
    }),
  );
}

const outboxItem = z.object({
  id: z.number(),
  recipient: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  /** Where the mail is in the queue: queued, sending, sent or failed (issue 27). */
  status: z.string(),
  created_at: z.string(),
});

/** The header that carries MAIL_OUTBOX_TOKEN. */
export const OUTBOX_TOKEN_HEADER = 'x-outbox-token';

function sameSecret(given: string | undefined, expected: string | undefined): boolean {
  if (!given || !expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The outbox for local development and browser tests (MAIL_OUTBOX_API=true only; never on by default, refused in
 * production): lets a test read the activation link that a real user would find in their mailbox. It hands out live
 * links, so only an admin session or the operator's MAIL_OUTBOX_TOKEN (header `x-outbox-token`) may read it.
 */
export async function outboxRoutes(app: FastifyInstance, options: { db: Db; token: string | undefined }) {
  app.log.warn(
    'MAIL_OUTBOX_API is on: GET /api/reviews/dev/outbox hands out live activation and reset links to admins and to holders of MAIL_OUTBOX_TOKEN. Development and tests only.',
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dev/outbox',
    {
      // Public so that the token alone suffices; without it the handler wants an admin session.
      config: { access: 'public' },
      schema: {
        hide: true,
        querystring: z.object({ to: z.email() }),
        response: { 200: z.array(outboxItem), 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      const header = request.headers[OUTBOX_TOKEN_HEADER];
      if (!sameSecret(typeof header === 'string' ? header : undefined, options.token)) {
        if (!request.user) throw unauthorized();
        if (!isAdmin(request.user)) throw forbidden('This section is only accessible to admins.');
      }
      const rows = await options.db
        .select()
        .from(outbox)
        .where(eq(sql`lower(${outbox.recipient})`, request.query.to.toLowerCase()))
        .orderBy(desc(outbox.id))
        .limit(20);
      return rows.map((row) => ({
        id: row.id,
        recipient: row.recipient,
        kind: row.kind,
        // A bulk notification is rendered when the worker delivers it; until then its text is empty here.
        subject: row.subject ?? '',
        text: row.textBody ?? '',
        link: row.link,
        status: row.status,
        created_at: row.createdAt.toISOString(),
      }));
    },
  );
}

/**
 * `GET admin/audit/?event_id&action&actor&size&page`: who changed what and when (admins only), newest first, 25 a page
 * unless asked otherwise; `GET admin/audit/actions/`: the actions it holds (issue 28 item 4).
 */
export async function auditRoutes(app: FastifyInstance, options: { audit: AuditService }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/admin/audit/',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        querystring: auditQuery,
        response: { 200: paged(auditEntry), 401: errorBody, 403: errorBody, 422: validationErrorBody },
      },
    },
    ({ query }) =>
      options.audit.list({ eventId: query.event_id, action: query.action, actor: query.actor }, { size: query.size, page: query.page }),
  );
  api.get(
    '/admin/audit/actions/',
    { config: { access: 'admin' }, schema: { tags: ['admin'], response: { 200: auditActions, 401: errorBody, 403: errorBody } } },
    () => options.audit.actions(),
  );
  // Issue 48: the hash chain's head and whether it verifies (the audit tab), admins only.
  api.get(
    '/admin/audit/chain/',
    { config: { access: 'admin' }, schema: { tags: ['admin'], response: { 200: auditChainStatus, 401: errorBody, 403: errorBody } } },
    () => options.audit.chain(),
  );
}
