import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/demo';
import { freePort } from './free-port';

// Issue 30 item 4: SIGTERM lets the requests in flight finish, then the process exits 0.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Resolves when the process has printed a line containing `text` (its pino log is JSON, a line per entry). */
function untilOutput(child: ChildProcess, read: () => string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (read().includes(text)) {
        child.stdout!.off('data', check);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before printing "${text}":\n${read()}`)));
    check();
  });
}

describe('graceful shutdown of the server process', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';
  let port: number;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cr-shutdown-'));
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        SEED_DEMO: 'true',
        // debug: the test waits for the server's 'incoming request' line before it sends the signal.
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await untilOutput(child, () => output, 'Community Review is at');
  }, 120_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes a request that is under way when SIGTERM arrives, refuses new connections, and exits 0', async () => {
    const body = new URLSearchParams({ username: 'cardano/demo-reviewer', password: DEMO_PASSWORD }).toString();
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    // The request's head and half its body: the server has the request in hand when the signal comes.
    socket.write(
      `POST /api/reviews/users/token/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    );
    // The server has parsed the head (on a busy machine the bytes can reach it after the signal, and a request that
    // arrives while closing is answered 503).
    await untilOutput(child, () => output, '/api/reviews/users/token/login');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    await untilOutput(child, () => output, 'shutting down');
    // Closing (it begins a moment after the log line): new requests are soon refused (no listener) or answered 503,
    // while the request in flight still waits for the rest of its body.
    const later = () =>
      fetch(`http://127.0.0.1:${port}/api/reviews/livez`).then(
        (response) => response.status,
        () => 'refused' as const,
      );
    let status = await later();
    for (let attempt = 0; status === 200 && attempt < 500; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await later();
    }
    expect([503, 'refused']).toContain(status);
    expect(answer).toBe('');

    socket.write(body.slice(10));
    // The server closes the connection after its answer (Connection: close), although the client asked nothing of it.
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer).toContain('"access_token"');
    expect(answer.toLowerCase()).toContain('connection: close');
    socket.end();
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"shut down"');
  }, 60_000);
});
