#!/usr/bin/env node
// `npm run dev`: the API server in watch mode on PORT (3000) and Vite's dev server on 5173, proxying /api and /env.js.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MAIL_OUTBOX_API: process.env.MAIL_OUTBOX_API ?? 'true' },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { cwd: `${root}/apps/web`, stdio: 'inherit' }),
];
console.log('API on http://localhost:3000, web app with hot reload on http://127.0.0.1:5173');

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
