import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { openPostgres } from '../../src/db/client';
import { SCALE_PASSWORD, seedScale } from '../../src/scale-seed';

const run = promisify(execFile);

/**
 * What the fault checks (issue 18) share: a throw-away PostgreSQL cluster of their own (so that they may stop and
 * start it), and the real server as a child process (so that they may kill -9 it).
 */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const JWT_SECRET = 'fault-tests-secret-fault-tests-secret!';
export const API = '/api/reviews';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The newest installed PostgreSQL server binaries (Debian: /usr/lib/postgresql/<version>/bin), or PG_BIN. */
function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

export interface Cluster {
  port: number;
  /** A directory of the cluster's owner (its binaries may write files there). */
  dir: string;
  /** A connection string to `database` on the cluster (superuser postgres, trust authentication). */
  url(database?: string): string;
  start(): Promise<void>;
  /** A fast shutdown: connections are ended, as in a restart or a failover. */
  stop(): Promise<void>;
  destroy(): void;
  /** Runs one of the cluster's binaries (pg_dump, pg_restore, …) as the cluster's owner. */
  run(binary: string, args: string[]): string;
}

/**
 * initdb + pg_ctl start of a cluster in a temp directory on a free port. PostgreSQL refuses to run as root: as root
 * the cluster belongs to the `postgres` user (runuser). Answers a reason instead when that is impossible.
 */
export async function startCluster(): Promise<Cluster | string> {
  const bin = postgresBin();
  if (!bin) return 'PostgreSQL server binaries not found (install postgresql, or set PG_BIN)';
  const isRoot = process.getuid?.() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (isRoot) {
    const entry = spawnSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).stdout.split(':');
    if (entry.length < 4) return 'running as root and there is no postgres user to run the cluster as';
    owner = { uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cr-fault-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const port = await freePort();
  const exec = (binary: string, args: string[]) => {
    const [command, argv] = owner ? ['runuser', ['-u', 'postgres', '--', join(bin, binary), ...args]] : [join(bin, binary), args];
    const result = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const execAsync = async (binary: string, args: string[]) => {
    const [command, argv] = owner ? ['runuser', ['-u', 'postgres', '--', join(bin, binary), ...args]] : [join(bin, binary), args];
    await run(command, argv);
  };
  const data = join(dir, 'data');
  exec('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const cluster: Cluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    // Asynchronous, so that a test's load keeps running while the cluster stops and starts.
    start: () => execAsync('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start']),
    stop: () => execAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      try {
        exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
    run: exec,
  };
  await cluster.start();
  // Never outlive the checks: an immediate stop if the process ends before destroy().
  const orphan = () => {
    try {
      exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  process.once('exit', orphan);
  const destroy = cluster.destroy;
  cluster.destroy = () => {
    process.off('exit', orphan);
    destroy();
  };
  return cluster;
}

/** The application_name of the checks' own connections (told apart from the server's in pg_stat_activity). */
export const CHECKS = 'cr-fault-checks';

/** Runs statements on `url` with a client of its own (not the server's pool). */
export async function query<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, application_name: CHECKS });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function createDatabase(cluster: Cluster, name: string): Promise<string> {
  await query(cluster.url(), `create database ${name}`);
  return cluster.url(name);
}

export interface ServerProcess {
  origin: string;
  child: ChildProcess;
  /** What the server wrote to stderr (its warnings and errors). */
  stderr(): string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** The real server (`node --import tsx apps/server/src/server.ts`) on a free port; resolves once it serves livez. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      LOGIN_LIMIT_PER_ACCOUNT: '1000000',
      LOGIN_LIMIT_PER_ADDRESS: '1000000',
      LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '1000000',
      ...env,
    },
  });
  // Never outlive the checks, even when they fail or time out.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  void new Promise((resolve) => child.once('exit', resolve)).then(() => process.off('exit', orphan));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`The server exited before it was ready:\n${stderr}`);
    try {
      const response = await fetch(`${origin}${API}/livez`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    child,
    stderr: () => stderr,
    kill9: async () => {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!gone) child.kill('SIGTERM');
      // A server busy in a long synchronous computation cannot run its shutdown: kill it after a while.
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One API request; status 0 when the connection failed (a killed server). */
export async function api(
  origin: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; form?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  try {
    const response = await fetch(`${origin}${API}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, headers: response.headers };
  } catch {
    return { status: 0, body: undefined, headers: new Headers() };
  }
}

export async function login(origin: string, catalystId: string, password: string): Promise<string> {
  const answer = await api(origin, 'POST', '/users/token/login', { form: { username: catalystId, password } });
  if (answer.status !== 200) throw new Error(`login of ${catalystId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** `work` for each item, at most `concurrency` at a time. */
export async function inTurn<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** Polls `check` until it answers true (the state a test waits for), failing after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000, everyMs = 20): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Migrates `url` and seeds a small active round (scale-seed) on it; answers the round and its reviewers' IDs. */
export async function seedRound(url: string, options: { proposals: number; reviewers: number; reviews?: number; lv1Share?: number }) {
  const database = await openPostgres(url, { onConnectionError: () => {} });
  try {
    await database.migrate();
    const seeded = await seedScale(database.db, {
      proposals: options.proposals,
      reviewers: options.reviewers,
      categories: 10,
      reviewsPerReviewer: options.reviews ?? 0,
      authorShare: 0,
      ...(options.lv1Share === undefined ? {} : { lv1Share: options.lv1Share }),
    });
    const reviewers = await query<{ catalyst_id: string; subscription_id: number }>(
      url,
      'select c.catalyst_id, s.id as subscription_id from subscriptions s join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = $1 order by s.id',
      [seeded.eventId],
    );
    const proposals = (await query<{ id: number }>(url, 'select id from proposals where event_id = $1 order by id', [seeded.eventId])).map(
      (row) => row.id,
    );
    return { eventId: seeded.eventId, reviewers, proposals };
  } finally {
    await database.close();
  }
}

export { SCALE_PASSWORD };
