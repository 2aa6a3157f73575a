/**
 * The mail queue (issue 27), on PostgreSQL (BENCH_DATABASE_URL):
 * 1. queueing: 100,000 reminders queued by one `INSERT … SELECT` of params rows (rendered at delivery), as the
 *    reminders are queued — target ≤ 10 s;
 * 2. the limit: the worker's pooled SMTP transport alone (5 connections, both phases at once, no queue, no database) to a
 *    local smtp-server sink in a process of its own — the sink's own rate;
 * 3. delivery: one worker process (lib/mail-worker-process.ts, the server's worker) rendering and sending
 *    BENCH_MAIL_DELIVER of the reminders to the sink — target ≥ 200 messages/s on 2 cores, and its ratio to (2);
 * 4. a kill: two worker processes deliver BENCH_MAIL_KILL mails; one gets kill -9 a third, a half or two thirds of
 *    the way through (five runs: a fifth, a third, a half, two thirds, four fifths); the other finishes (lease 3 s). Duplicates and lost mails counted at the sink by
 *    Message-ID.
 * Writes bench/results/mail.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { createSmtpTransport, sendMail } from '../apps/server/src/adapters/smtp-transport';
import { outbox } from '../apps/server/src/db/schema/index';
import { messageIdOf } from '../apps/server/src/modules/mail/mail-worker';
import { benchDatabase, round } from './lib/database';
import { BENCH_MAIL_KIND } from './lib/mail-template';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const QUEUED = Number(process.env.BENCH_MAIL_QUEUE ?? 100_000);
const DELIVER = Math.min(QUEUED, Number(process.env.BENCH_MAIL_DELIVER ?? 5_000));
const RAW = Number(process.env.BENCH_MAIL_RAW ?? 5_000);
const KILL = Number(process.env.BENCH_MAIL_KILL ?? 6_000);
const FROM = 'Community Review <no-reply@review.example.org>';

/** A child process speaking one JSON line per question. */
function lineProcess(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Interface = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<any>((resolve) => waiting.push((line) => resolve(JSON.parse(line))));
  return {
    child,
    next,
    ask: (question: string) => {
      const answer = next();
      child.stdin!.write(`${question}\n`);
      return answer;
    },
  };
}

const database = await benchDatabase();
const processes: ChildProcess[] = [];
const count = async (where: ReturnType<typeof sql>) =>
  ((await database.db.execute(sql`select count(*)::int as n from outbox where ${where}`)) as unknown as { rows: { n: number }[] }).rows[0]!
    .n;
const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 600_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('mail bench: timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
/** Params rows as the reminders are queued: one INSERT … SELECT, dedupe key per person and window. */
const queueReminders = (from: number, to: number) =>
  database.db.execute(sql`
    insert into outbox (recipient, kind, params, dedupe_key)
    select 'reviewer-' || n || '@example.test', ${BENCH_MAIL_KIND},
           jsonb_build_object('event', 1, 'done', n % 20, 'total', 20, 'window', 'review', 'hours_before', 24),
           'reminder:1:review:24:2026-12-01T00:00:00Z:' || n
    from generate_series(${from}::int, ${to}::int) as n
    on conflict do nothing`);

try {
  // 1. Queueing.
  let started = performance.now();
  await queueReminders(1, QUEUED);
  const queueSeconds = round((performance.now() - started) / 1000, 2);
  console.log(`queued ${QUEUED.toLocaleString('en')} reminders in ${queueSeconds} s (target ≤ 10 s)`);

  const sink = lineProcess([join(here, 'lib/smtp-sink-process.ts')], {});
  processes.push(sink.child);
  const { port } = (await sink.next()) as { port: number };
  const smtpUrl = `smtp://127.0.0.1:${port}`;

  // 2. The sink's own rate: the raw pooled transport, 5 connections.
  const raw = createSmtpTransport(smtpUrl);
  const body = 'Each review counts towards the round. '.repeat(12);
  let sentRaw = 0;
  started = performance.now();
  await Promise.all(
    Array.from({ length: raw.concurrency }, async () => {
      while (sentRaw < RAW) {
        const i = sentRaw++;
        await sendMail(raw, {
          from: FROM,
          to: `raw-${i}@example.test`,
          subject: `Raw ${i}`,
          text: body,
          html: `<p>${body}</p>`,
          messageId: `<raw-${i}@bench>`,
          headers: {},
        });
      }
    }),
  );
  const rawRate = round(RAW / ((performance.now() - started) / 1000), 0);
  raw.close();
  console.log(`raw SMTP transport (5 connections) → sink: ${rawRate} messages/s (the limit)`);
  await sink.ask('reset');

  // 3. One worker process delivers DELIVER of the queued reminders (the rest wait until later).
  await database.db.execute(sql`update outbox set next_attempt_at = now() + interval '1 day' where id > ${DELIVER}`);
  started = performance.now();
  const worker = lineProcess([join(here, 'lib/mail-worker-process.ts')], {
    BENCH_MAIL_DATABASE_URL: database.url,
    BENCH_MAIL_SMTP_URL: smtpUrl,
  });
  processes.push(worker.child);
  await worker.next();
  await waitUntil(async () => (await count(sql`status = 'sent'`)) >= DELIVER);
  const deliverSeconds = (performance.now() - started) / 1000;
  const deliverRate = round(DELIVER / deliverSeconds, 0);
  worker.child.kill('SIGTERM');
  const delivered = (await sink.ask('stats')) as { accepted: number };
  console.log(
    `one worker process: ${DELIVER.toLocaleString('en')} reminders rendered and sent in ${round(deliverSeconds, 2)} s = ${deliverRate} messages/s (target ≥ 200; ${round(deliverRate / rawRate, 2)} × the limit; sink got ${delivered.accepted})`,
  );
  await new Promise((resolve) => worker.child.once('exit', resolve));

  // 4. Two worker processes, kill -9 of one part of the way through (five runs, from a fifth to four fifths).
  const killRun = async (share: number) => {
    await database.db.execute(sql`truncate outbox`);
    await sink.ask('reset');
    await queueReminders(1, KILL);
    const begun = performance.now();
    const pair = [0, 1].map(() =>
      lineProcess([join(here, 'lib/mail-worker-process.ts')], { BENCH_MAIL_DATABASE_URL: database.url, BENCH_MAIL_SMTP_URL: smtpUrl }),
    );
    processes.push(...pair.map((one) => one.child));
    await Promise.all(pair.map((one) => one.next()));
    await waitUntil(async () => (await count(sql`status = 'sent'`)) >= KILL * share);
    pair[0]!.child.kill('SIGKILL');
    const killedAt = await count(sql`status = 'sent'`);
    const inDoubt = await count(sql`status = 'sending'`);
    await waitUntil(async () => (await count(sql`status in ('sent', 'failed')`)) >= KILL);
    const seconds = round((performance.now() - begun) / 1000, 1);
    const exited = new Promise((resolve) => pair[1]!.child.once('exit', resolve));
    pair[1]!.child.kill('SIGTERM');
    await exited;
    const stats = (await sink.ask('stats')) as { accepted: number; counts: Record<string, number> };
    const rows = await database.db.select({ id: outbox.id, createdAt: outbox.createdAt, status: outbox.status }).from(outbox);
    const duplicates = Object.values(stats.counts).reduce((sum, times) => sum + Math.max(0, times - 1), 0);
    const lost = rows.filter((row) => !stats.counts[messageIdOf(row, FROM)]).length;
    const failed = rows.filter((row) => row.status === 'failed').length;
    console.log(
      `two worker processes, kill -9 of one after ${killedAt} of ${KILL} sent (${inDoubt} claimed by then): ${duplicates} duplicates, ${lost} lost, ${failed} failed at the sink's count; all done in ${seconds} s`,
    );
    return { mails: KILL, sent_before_kill: killedAt, claimed_at_kill: inDoubt, duplicates, lost, failed, seconds };
  };
  const kills = [];
  for (const share of [1 / 5, 1 / 3, 1 / 2, 2 / 3, 4 / 5]) kills.push(await killRun(share));
  const duplicates = kills.reduce((sum, run) => sum + run.duplicates, 0);
  const lost = kills.reduce((sum, run) => sum + run.lost, 0);

  const results = {
    date: new Date().toISOString(),
    queue: { mails: QUEUED, seconds: queueSeconds, target_seconds: 10 },
    limit: { raw_transport_to_sink_per_second: rawRate, messages: RAW },
    delivery: {
      mails: DELIVER,
      seconds: round(deliverSeconds, 2),
      per_second: deliverRate,
      target_per_second: 200,
      ratio_to_limit: round(deliverRate / rawRate, 2),
    },
    kill: { runs: kills, duplicates, lost },
  };
  console.table([
    { figure: 'queue 100k (s)', value: queueSeconds, target: '≤ 10' },
    { figure: 'sink alone (msg/s)', value: rawRate, target: 'limit' },
    { figure: 'worker delivery (msg/s)', value: deliverRate, target: '≥ 200' },
    { figure: `kill -9 (${kills.length} runs): duplicates`, value: duplicates, target: '0' },
    { figure: `kill -9 (${kills.length} runs): lost`, value: lost, target: '0' },
  ]);
  writeFileSync(join(here, 'results/mail.json'), JSON.stringify(results, null, 2));
} finally {
  for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
  await database.drop();
}
