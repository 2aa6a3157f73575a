#!/usr/bin/env node
// `npm start`: builds the web app and the server when they are missing or older than their sources, then runs the
// compiled server with plain node (issue 30 item 1; `npm run dev` keeps the TypeScript watch loop).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, newestMtime, serverBuildIsStale, serverEntry } from './build-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'apps/web/dist/index.html');

const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'packages/contract/src'].map((p) => join(root, p));
const sourceTime = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@cr/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (serverBuildIsStale()) {
  console.log('Building the server…');
  await buildServer();
}

const server = spawn(process.execPath, ['--enable-source-maps', serverEntry], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
