import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** How often each instance purges (any instance may: each purge is one idempotent statement per table). */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface RetentionOptions {
  /** MAIL_RETENTION_DAYS: a sent mail's body, subject, link and parameters are dropped this long after it was sent. */
  mailRetentionDays: number;
  /** The idempotency keys' lifetime (plugins/idempotency keeps a key a day). */
  idempotencyHours: number;
  /** RATE_LIMIT_WINDOW_SECONDS: a counter whose window ended is of no use. */
  rateLimitWindowSeconds: number;
}

export interface PurgeCounts {
  mailBodies: number;
  refreshTokens: number;
  oneTimeTokens: number;
  idempotencyKeys: number;
  rateLimits: number;
}

const countOf = async (db: Db, statement: SQL): Promise<number> => {
  const result = await db.execute(sql`with gone as (${statement} returning 1) select count(*)::int as n from gone`);
  const rows = Array.isArray(result) ? result : ((result as { rows?: { n: number }[] }).rows ?? []);
  return Number((rows[0] as { n?: number } | undefined)?.n ?? 0);
};

/**
 * Issue 47 item 4: what is kept only for a while (docs/personal-data.md, "How long"). A sent mail keeps its row (the
 * queue's counts by kind and status) and loses its content; sessions (refresh tokens), e-mailed links, idempotency
 * keys and rate-limit counters go once their lifetime is over.
 */
export function createRetentionService(db: Db, options: RetentionOptions) {
  let timer: NodeJS.Timeout | undefined;
  const service = {
    async purge(): Promise<PurgeCounts> {
      const mailBodies = await countOf(
        db,
        sql`update outbox set subject = null, text_body = null, html_body = null, link = null, params = null, headers = null
          where status = 'sent' and sent_at < now() - make_interval(days => ${options.mailRetentionDays})
            and (text_body is not null or html_body is not null or subject is not null or link is not null or params is not null)`,
      );
      const refreshTokens = await countOf(db, sql`delete from refresh_tokens where expires_at < now()`);
      const oneTimeTokens = await countOf(db, sql`delete from one_time_tokens where expires_at < now()`);
      const idempotencyKeys = await countOf(
        db,
        sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${options.idempotencyHours})`,
      );
      const rateLimits = await countOf(
        db,
        sql`delete from rate_limits where window_started_at < now() - make_interval(secs => ${options.rateLimitWindowSeconds})`,
      );
      return { mailBodies, refreshTokens, oneTimeTokens, idempotencyKeys, rateLimits };
    },

    /** Purges now and then every hour (the server starts it; tests call `purge`). */
    start(onError: (error: unknown) => void) {
      const tick = () => void service.purge().catch(onError);
      tick();
      timer = setInterval(tick, PURGE_EVERY_MS);
      timer.unref();
    },

    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
  return service;
}
export type RetentionService = ReturnType<typeof createRetentionService>;
