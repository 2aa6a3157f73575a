import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/client';
import { outbox } from '../../src/db/schema/index';
import { messageIdOf } from '../../src/modules/mail/mail-worker';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';
import { createDatabase, query, startCluster, startServer, until, type Cluster, type ServerProcess } from './harness';

const MAILS = 100;
const ACCEPTED_BEFORE_THE_KILL = 30;
const FROM = 'Community Review <no-reply@review.example.org>';

const countSent = async (url: string) =>
  (await query<{ n: number }>(url, `select count(*)::int as n from outbox where status = 'sent'`))[0]!.n;

// Issue 27, "A fault test": the mail worker killed (kill -9 of its server) in the middle of a batch, while the SMTP
// server holds some of its mails unanswered; a new server then sends what was not sent: every mail reaches the sink
// exactly once, and the mails sent before the kill are not sent again when the dead worker's lease runs out.
describe('kill -9 of the mail worker mid-batch', () => {
  let cluster: Cluster | string;
  let url: string;
  let sink: SmtpSink;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
    if (typeof cluster === 'string') return;
    url = await createDatabase(cluster, 'cr_fault_mail');
    const database = await openPostgres(url, { onConnectionError: () => {} });
    await database.migrate();
    await database.close();
    await query(
      url,
      `insert into outbox (recipient, kind, subject, text_body, html_body)
       select 'person-' || n || '@example.test', 'activation', 'Mail ' || n, 'Text ' || n, '<p>' || n || '</p>'
       from generate_series(1, ${MAILS}) as n`,
    );
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await sink?.close();
    if (typeof cluster !== 'string') cluster?.destroy();
  });

  it('sends every mail exactly once after a new worker takes over', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const env = { DATABASE_URL: url, SMTP_URL: sink.url, MAIL_FROM: FROM, MAIL_RATE_PER_SECOND: '1000', MAIL_LEASE_SECONDS: '3' };

    // The sink answers the first 30 mails, then reads the next ones and never answers: the worker is stuck mid-batch.
    sink.holdAfter = ACCEPTED_BEFORE_THE_KILL;
    const first = await startServer(env);
    servers.push(first);
    await until(
      'the first worker to send 30 mails, record them and get stuck',
      async () => sink.messages.length === ACCEPTED_BEFORE_THE_KILL && sink.held > 0 && (await countSent(url)) === ACCEPTED_BEFORE_THE_KILL,
    );
    await first.kill9();
    const inFlight = await query<{ n: number }>(url, `select count(*)::int as n from outbox where status = 'sending'`);
    expect(inFlight[0]!.n).toBeGreaterThanOrEqual(sink.held);

    // The SMTP server is well again; a new server's worker finds the dead one's rows once their lease has run out.
    sink.holdAfter = Number.POSITIVE_INFINITY;
    const second = await startServer(env);
    servers.push(second);
    await until('every mail to be sent', async () => (await countSent(url)) === MAILS, 60_000, 100);

    const database = await openPostgres(url, { onConnectionError: () => {} });
    try {
      const rows = await database.db.select().from(outbox);
      expect(rows).toHaveLength(MAILS);
      const counts = sink.countsById();
      expect(sink.messages).toHaveLength(MAILS);
      for (const row of rows) expect({ id: row.id, times: counts.get(messageIdOf(row, FROM)) }).toEqual({ id: row.id, times: 1 });
      // The mails held at the kill went out on a second attempt; the others on their first.
      expect(rows.filter((row) => row.attempts === 2).length).toBeGreaterThanOrEqual(1);
      expect(rows.filter((row) => row.attempts === 1).length).toBeGreaterThanOrEqual(ACCEPTED_BEFORE_THE_KILL);
    } finally {
      await database.close();
    }
  });
});
