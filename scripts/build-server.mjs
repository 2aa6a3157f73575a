#!/usr/bin/env node
// The production server (issue 30 item 1): esbuild bundles apps/server/src and the contract package into plain
// JavaScript in apps/server/dist, so that `npm start` runs `node` alone, without a TypeScript loader. npm packages stay
// outside the bundle (native modules such as argon2 and PGlite's files must be loaded from node_modules). The
// migrations and the sample proposals are copied beside the bundle, where the code looks for them
// (`import.meta.url`). Source maps are written beside the files for the server's own stack traces (node
// --enable-source-maps); nothing serves them.
//
// `node scripts/build-server.mjs` builds; `--if-stale` builds only when a source is newer than the bundle.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'apps/server/src');
const out = join(root, 'apps/server/dist');
export const serverEntry = join(out, 'server.mjs');

/** The newest modification time of any file under `dir` (also how start.mjs tells a stale web build). */
export function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when the bundle is missing or older than the server's or the contract's sources. */
export function serverBuildIsStale() {
  if (!existsSync(serverEntry)) return true;
  const sources = Math.max(newestMtime(src), newestMtime(join(root, 'packages/contract/src')));
  return statSync(serverEntry).mtimeMs < sources;
}

/** Bare imports stay imports (node_modules), but for our own workspace packages, which are TypeScript sources. */
const externalPackages = {
  name: 'external-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@cr/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      server: join(src, 'server.ts'),
      cli: join(src, 'cli.ts'),
      // The worker threads, named as the code starts them (new URL('./….mjs', import.meta.url)).
      'hash-worker': join(src, 'lib/hash-worker.mjs'),
      'per-review-flags.thread': join(src, 'modules/flags/per-review-flags.worker.ts'),
    },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    // Keep class and function names: they appear in logs and in error names.
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  cpSync(join(src, 'db/migrations'), join(out, 'migrations'), { recursive: true });
  cpSync(join(src, 'modules/proposals/sample-data'), join(out, 'sample-data'), { recursive: true });
  return Date.now() - started;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && !serverBuildIsStale()) process.exit(0);
  const ms = await buildServer();
  console.log(`Server built into apps/server/dist in ${ms} ms`);
}
