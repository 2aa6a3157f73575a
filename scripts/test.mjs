#!/usr/bin/env node
// `npm test`: typecheck, lint, unit and API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), then the
// browser tests in Debian's Chromium against the real server. Never downloads a browser.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const e2eOnly = process.argv.includes('--e2e-only');
const results = mkdtempSync(join(tmpdir(), 'cr-test-'));

/** Runs a command with its output shown as it comes. Never spawnSync: commands running beside it would stall on their
 * full output pipes while this process waited. */
function run(label, command, args, env = {}) {
  console.log(`\n== ${label}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      console.log(`== ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
      resolve(code === 0);
    });
  });
}

/** Runs a command with its output kept, printed whole once it ends (commands that run side by side stay readable). */
function runBuffered(label, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code) => {
      console.log(`\n== ${label} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(code === 0);
    });
  });
}

/** Debian's Chromium for the browser tests: its headless build (package `chromium-headless-shell`, the same source and
 * version as `chromium`, and what Playwright itself runs for headless tests) when installed, else the browser. The
 * headless build spends about a fifth less CPU on the same tests (docs/decisions.md, issue 45 item 16). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const BROWSER = '/usr/bin/chromium';

async function ensureChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    console.error(`CHROMIUM_PATH names ${process.env.CHROMIUM_PATH}, which does not exist.`);
    process.exit(1);
  }
  const installed = () => [HEADLESS_SHELL, BROWSER].find((path) => existsSync(path));
  if (installed()) return installed();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  // Without the packages Chromium recommends (a desktop's printing, audio and GPU stack), but with the fonts they bring.
  const install = 'apt-get install -y --no-install-recommends chromium-headless-shell fonts-liberation';
  if (isRoot && existsSync('/etc/debian_version')) {
    console.log(`Chromium is missing: installing Debian's chromium-headless-shell package (${install})…`);
    const [command, ...args] = install.split(' ');
    const ok = (await run('apt-get update', command, ['update', '-qq'])) && (await run(install, command, ['-qq', ...args]));
    if (ok && installed()) return installed();
  }
  console.error(
    `Chromium was found at neither ${HEADLESS_SHELL} nor ${BROWSER}. Install it with:\n\n  sudo ${install}\n\n(or the \`chromium\` package), or set CHROMIUM_PATH to a Chromium binary.`,
  );
  process.exit(1);
}

/** A new database on the PostgreSQL server of `serverUrl`, for the browser tests; `drop()` removes it. */
async function createE2eDatabase(serverUrl) {
  const { default: pg } = await import('pg');
  const name = `cr_e2e_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  };
  // An interrupted run leaves its database behind: those more than a day old go.
  for (const { datname } of await admin("select datname from pg_database where datname like 'cr\\_e2e\\_%'")) {
    const made = parseInt(datname.split('_').at(-1), 36);
    if (Date.now() - made > 86_400_000) await admin(`drop database if exists ${datname} with (force)`).catch(() => {});
  }
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`).catch(() => {}) };
}

function count(file, read) {
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

let ok = true;
const totals = { passed: 0, failed: 0, skipped: 0 };
const add = (part) => {
  totals.passed += part.passed;
  totals.failed += part.failed;
  totals.skipped += part.skipped;
};

// Type checks, lint and the production build are single-threaded for most of their time: side by side they take
// about as long as the longest of them (issue 26 item 18).
// The browser tests' server seeds the demo into its data directory on its first start: done here, beside the checks,
// its start no longer holds up the browser suite for the seeding (half a minute on a busy machine).
const dataDir = join(results, 'e2e-data');
rmSync(dataDir, { recursive: true, force: true });
// With TEST_DATABASE_URL the browser tests' server runs on a PostgreSQL database of its own, made here and dropped at
// the end: the embedded database runs inside the server's process, a core's share of a 2-core machine (issue 26 item 18).
const e2eDatabase = process.env.TEST_DATABASE_URL ? await createE2eDatabase(process.env.TEST_DATABASE_URL) : null;
const checks = [
  runBuffered('build the web app and the server', 'npm', ['run', '--silent', 'build']),
  runBuffered('seed the browser tests’ database', 'node', ['--import', 'tsx', 'apps/server/src/cli.ts', 'seed-demo'], {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(e2eDatabase ? { DATABASE_URL: e2eDatabase.url } : {}),
  }),
];
// The mail worker's kill -9 check (issue 27) waits on processes and a cluster of its own far more than it computes:
// it runs beside the checks. The other fault checks stay in `npm run test:faults`.
const faultsJson = join(results, 'faults.json');
if (!e2eOnly) {
  checks.push(
    runBuffered('typecheck', 'npm', ['run', '--silent', 'typecheck']),
    runBuffered('lint', 'npm', ['run', '--silent', 'lint']),
    runBuffered('fault check: the mail worker killed mid-batch', 'npx', [
      'vitest',
      'run',
      '-c',
      'vitest.faults.config.ts',
      'apps/server/test/faults/mail-worker-crash.fault.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${faultsJson}`,
    ]),
  );
}
// The unit and API tests need none of the checks' output: they start with them, and the browser tests once both the
// build (with the seeded database) and they are done; the type checks and lint may run on beside the browser tests.
// Run side by side with the browser tests, they slowed those more than they gained (measured: 658 s against about
// 630 s one after the other), but beside the checks they fill the cores those leave idle (issue 26 item 18).
// `TEST_SEQUENTIAL=1` runs them after the checks instead, with their output as it comes.
const sequential = process.env.TEST_SEQUENTIAL === '1';
const vitestJson = join(results, 'vitest.json');
const vitestArgs = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`];
const unitAndApi = !e2eOnly && !sequential ? runBuffered('unit and API tests', 'npx', vitestArgs) : null;
const built = await checks[0];
ok = (await checks[1]) && ok;
const otherChecks = Promise.all(checks.slice(2));

const vitestCounts = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numTotalTestSuites && !r.success && r.numFailedTests === 0 ? 1 : 0),
  skipped: r.numPendingTests + r.numTodoTests,
});

if (!e2eOnly && sequential) {
  ok = (await otherChecks).every(Boolean) && ok;
  ok = (await run('unit and API tests', 'npx', vitestArgs)) && ok;
}
if (unitAndApi) ok = (await unitAndApi) && ok;
if (!e2eOnly) add(count(vitestJson, vitestCounts));

const chromium = await ensureChromium();
if (!built) console.log('\nThe web app did not build: the browser tests run against what is in apps/web/dist, if anything.');
const playwrightJson = join(results, 'playwright.json');
ok =
  (await run('browser tests (Chromium)', 'npx', ['playwright', 'test', '-c', 'apps/web/playwright.config.ts'], {
    CHROMIUM_PATH: chromium,
    E2E_DATA_DIR: dataDir,
    ...(e2eDatabase ? { E2E_DATABASE_URL: e2eDatabase.url } : {}),
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
    PLAYWRIGHT_REPORTER_EXTRA: 'json',
  })) && ok;
add(count(playwrightJson, (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected, skipped: r.stats.skipped })));
ok = (await otherChecks).every(Boolean) && ok;
if (!e2eOnly) add(count(faultsJson, vitestCounts));

rmSync(results, { recursive: true, force: true });
await e2eDatabase?.drop();
if (totals.failed === 0 && !ok) totals.failed = 1; // a typecheck, lint or build failure counts as one
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
