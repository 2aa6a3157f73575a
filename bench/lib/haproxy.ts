import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when Debian's haproxy is installed (`apt-get install -y haproxy`). */
export const haproxyInstalled = () => !spawnSync('haproxy', ['-v']).error;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Waits until `url` answers 2xx, or fails once `child` has exited. */
export async function waitFor(url: string, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * HAProxy round-robin over `backends` (ports on 127.0.0.1), health-checked on readyz, keep-alive on both sides.
 * Answers its port and `stop()`.
 */
export async function startHaproxy(backends: number[]) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cr-haproxy-'));
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 600s',
    '  timeout server 600s',
    '  option http-keep-alive',
    '  http-reuse always',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    '  option httpchk GET /api/reviews/readyz',
    ...backends.map((backend, i) => `  server s${i} 127.0.0.1:${backend} check inter 2s`),
  ].join('\n');
  writeFileSync(join(dir, 'haproxy.cfg'), `${config}\n`);
  const child = spawn('haproxy', ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  await waitFor(`http://127.0.0.1:${port}/api/reviews/livez`, child);
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
