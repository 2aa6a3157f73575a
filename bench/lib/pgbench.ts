import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { percentile, round } from './database';
import type { Statement } from './ratios';

const run = promisify(execFile);
/** node-postgres's own conversion of a value to the text it sends (arrays as `{…}` literals, dates, JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils') as { prepareValue(value: unknown): unknown };

/**
 * pgbench's script for the statements of one request, in the order the server sent them: each `$n` becomes a pgbench
 * variable `:pK` given with `-D` as the text node-postgres sends (arrays as `{…}` literals), so that in prepared mode
 * (`-M prepared`) each statement is parsed and planned once per connection and bound with the same values; a null
 * value is written as `NULL` in the text. Answers the script and the `-D` arguments.
 */
export function pgbenchScript(statements: Statement[]): { script: string; defines: string[] } {
  const defines: string[] = [];
  const parts = statements.map((statement, index) => {
    const text = statement.text.replace(/\$(\d+)\b/g, (_, position: string) => {
      const value: unknown = statement.values?.[Number(position) - 1];
      if (value === null || value === undefined) return 'NULL';
      const name = `s${index}p${position}`;
      defines.push('-D', `${name}=${String(prepareValue(value))}`);
      return `:${name}`;
    });
    if (text.includes(';')) throw new Error(`pgbench: a statement with ';' cannot be replayed: ${text.slice(0, 200)}`);
    // pgbench reads one command per line unless it ends with ';': one line each.
    return `${text.replace(/\s+/g, ' ')};`;
  });
  return { script: `${parts.join('\n')}\n`, defines };
}

/**
 * pgbench replaying one request's statements (`pgbenchScript`) as one transaction script, `-M prepared`, `concurrency`
 * clients on 2 threads for `seconds`. Latencies come from its per-transaction log. Answers req/s and percentiles like
 * `load` (lib/processes.ts).
 */
export async function pgbenchLoad(settings: { url: string; statements: Statement[]; concurrency: number; seconds: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'cr-pgbench-'));
  try {
    const { script, defines } = pgbenchScript(settings.statements);
    writeFileSync(join(dir, 'script.sql'), script);
    const args = ['-n', '-M', 'prepared', '-c', String(settings.concurrency), '-j', '2', '-f', join(dir, 'script.sql'), ...defines];
    // A short warm-up (caches, the server's plans), then the measurement with its per-transaction log.
    await run('pgbench', [...args, '-T', '1', settings.url], { maxBuffer: 64 * 1024 * 1024 });
    const { stdout } = await run(
      'pgbench',
      [...args, '-T', String(settings.seconds), '-l', `--log-prefix=${join(dir, 'log')}`, settings.url],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((name) => name.startsWith('log'))) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        // client_id transaction_no time_us script_no epoch epoch_us
        const fields = line.split(' ');
        if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      errors: failed,
      rps: round(latencies.length / settings.seconds, 0),
      p50_ms: round(percentile(latencies, 50), 3),
      p95_ms: round(percentile(latencies, 95), 3),
      p99_ms: round(percentile(latencies, 99), 3),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
