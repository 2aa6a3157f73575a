#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ (files named *.bench.ts), each printing a table and writing JSON
// under bench/results/. A benchmark is a plain script: it measures, it never asserts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'bench');
mkdirSync(join(dir, 'results'), { recursive: true });
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();
if (benches.length === 0) {
  console.log('No benchmarks yet: they arrive with the proposal list and allocation (issue 5).');
  process.exit(0);
}
let failed = 0;
for (const name of benches) {
  console.log(`\n== ${name}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, name)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
