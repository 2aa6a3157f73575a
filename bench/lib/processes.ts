import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadSettings, percentile, round } from './database';

const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

export interface ServerProcess {
  origin: string;
  pid: number;
  /** The process's resident memory now, in bytes (from /proc). */
  rss(): number;
  /** The CPU time (user + system) the process has used so far, in seconds (from /proc; 0 once it has ended). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Starts a process that prints `{"port": n}` once it listens: lib/server.ts (the server) or lib/replay-server.mjs. */
async function start(args: string[], env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    // Log lines may come first (a server logging at info); the rest of stdout is read and dropped.
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{"port":')) return;
      resolve((JSON.parse(line) as { port: number }).port);
      lines.removeAllListeners('line');
    });
  });
  child.removeAllListeners('exit');
  child.on('exit', (code, signal) => {
    if (code !== 0) console.error(`${args.at(-1)} ended: code ${code}, signal ${signal}`);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    // 0 once the process has ended (a zombie has no VmRSS line).
    rss: () => {
      try {
        return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      } catch {
        return 0;
      }
    },
    cpuSeconds: () => {
      try {
        // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): utime and stime in clock ticks (100/s).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return 0;
      }
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The server (apps/server) in a process of its own on the database of `url`. */
export const startServer = (url: string, nodeOptions: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  start([...nodeOptions, '--import', 'tsx', join(here, 'server.ts')], { BENCH_SERVER_DATABASE_URL: url, ...env });

/** A bare Fastify route replaying captured SQL (lib/replay-server.mjs). */
export const startReplayServer = (url: string, requests: unknown[][]) =>
  start([join(here, 'replay-server.mjs'), url, loadSettings(requests)], {});

/** Every statement this process sends to PostgreSQL while `action` runs (text, values, row mode), in order. */
export async function captureQueries(action: () => Promise<unknown>): Promise<unknown[]> {
  const captured: unknown[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ text: first, values: Array.isArray(second) ? second : undefined });
    else if (first && typeof first === 'object' && 'text' in first) {
      // drizzle passes the values as the second argument.
      const { text, values, rowMode, name } = first as { text: string; values?: unknown[]; rowMode?: string; name?: string };
      // A named statement keeps its name: a replay runs it prepared, as the server does.
      captured.push({ text, values: values ?? (Array.isArray(second) ? second : undefined), rowMode, ...(name ? { name } : {}) });
    }
    return original.apply(this, args);
  };
  try {
    await action();
  } finally {
    prototype.query = original;
  }
  return captured;
}

/** Logs in over HTTP with the scale password; answers the access token. */
export async function login(origin: string, catalystId: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/reviews/users/token/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `username=${encodeURIComponent(catalystId)}&password=${encodeURIComponent(password)}`,
  });
  if (!response.ok) throw new Error(`login of ${catalystId}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * lib/load.mjs in a second process: a 1 s warm-up, then `seconds` of `concurrency` clients on random URLs (one
 * header set per URL when `headers` is a list). Answers req/s and percentiles.
 */
export async function load(settings: {
  urls: string[];
  concurrency: number;
  seconds: number;
  headers?: Record<string, string>;
  urlHeaders?: Record<string, string>[];
}) {
  await run(process.execPath, [join(here, 'load.mjs'), loadSettings({ ...settings, seconds: 1 })], { maxBuffer: 256 * 1024 * 1024 });
  const { stdout } = await run(process.execPath, [join(here, 'load.mjs'), loadSettings(settings)], { maxBuffer: 256 * 1024 * 1024 });
  const { latencies, errors, statuses } = JSON.parse(stdout) as { latencies: number[]; errors: number; statuses: Record<string, number> };
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    statuses: JSON.stringify(statuses),
    rps: round(latencies.length / settings.seconds, 0),
    p50_ms: round(percentile(latencies, 50), 2),
    p95_ms: round(percentile(latencies, 95), 2),
    p99_ms: round(percentile(latencies, 99), 2),
  };
}

/** wrk's summary as JSON (latencies in microseconds), written by its `done` hook. */
const WRK_SCRIPT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"errors":%d,"non2xx":%d,"p50":%d,"p95":%d,"p99":%d,"max":%d}\\n',
    summary.requests, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
`;

/** Whether wrk (Debian's `wrk`: a C load generator, like pgbench on the SQL side) is installed. */
export const hasWrk = () => existsSync('/usr/bin/wrk');

/**
 * The same closed loop as `load` (one URL, `concurrency` keep-alive connections, a 1 s warm-up, then `seconds`)
 * driven by wrk, one thread: a load generator that costs the shared CPU next to nothing, as pgbench does on the
 * SQL side (lib/load.mjs, Node's http client, costs about as much CPU per request as the server's proposals list).
 */
export async function loadWithWrk(settings: { url: string; concurrency: number; seconds: number; headers?: Record<string, string> }) {
  const dir = mkdtempSync(join(tmpdir(), 'cr-wrk-'));
  const script = join(dir, 'summary.lua');
  writeFileSync(script, WRK_SCRIPT);
  const headerArgs = Object.entries(settings.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const wrk = (seconds: number) =>
    run('wrk', ['-t1', `-c${settings.concurrency}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, ...headerArgs, settings.url], {
      maxBuffer: 16 * 1024 * 1024,
    });
  await wrk(1);
  const { stdout } = await wrk(settings.seconds);
  rmSync(dir, { recursive: true, force: true });
  const line = stdout.split('\n').find((text) => text.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no summary: ${stdout}`);
  const summary = JSON.parse(line) as {
    requests: number;
    errors: number;
    non2xx: number;
    p50: number;
    p95: number;
    p99: number;
    max: number;
  };
  return {
    requests: summary.requests,
    errors: summary.errors + summary.non2xx,
    statuses: '',
    rps: round(summary.requests / settings.seconds, 0),
    p50_ms: round(summary.p50 / 1000, 2),
    p95_ms: round(summary.p95 / 1000, 2),
    p99_ms: round(summary.p99 / 1000, 2),
    max_ms: round(summary.max / 1000, 1),
  };
}

/** Samples a process's RSS every 50 ms until stopped; answers the baseline and the peak. */
export function rssSampler(rss: () => number) {
  const baseline = rss();
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 50);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, rss());
      return { baseline, peak, growth: peak - baseline };
    },
  };
}

/** The 1-minute load average: the machine is shared, so every figure carries it. */
export const loadAverage = () => round(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]), 2);

/**
 * POSTs JSON with node:http, which never times out (fetch gives up on an answer after 300 s, and a long run on a
 * busy machine takes longer). Answers the status and the parsed body.
 */
export function postJson(url: string, token: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
