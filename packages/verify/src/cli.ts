#!/usr/bin/env node
import { formatReport, verifyArchive } from './verify.js';

/**
 * `npx @community-review/verify round.zip`: recomputes a round from its open data and prints `N/N figures reproduced`,
 * or each figure it could not reproduce. Exit code 0 when everything is reproduced and the files match their hashes,
 * 1 otherwise, 2 for a usage error.
 */
const [path, ...rest] = process.argv.slice(2);
if (path === undefined || rest.length > 0 || path === '--help' || path === '-h') {
  console.error('Usage: npx @community-review/verify <round-open-data.zip>');
  process.exit(2);
}
try {
  const started = Date.now();
  const report = await verifyArchive(path);
  for (const line of formatReport(report)) console.log(line);
  console.log(`(checked in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exit(report.differences.length === 0 && report.integrity.length === 0 ? 0 : 1);
} catch (error) {
  console.error(`Could not verify ${path}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
