// Replays the SQL of one API request in its own process: `node sql-load.mjs @file` with {url, statements: [{text,
// values}], concurrency, seconds, prepared?}. Each worker runs the statements one after the other on a pooled
// connection, as the server does; `prepared` names them (PostgreSQL plans each once per connection). Prints
// {latencies (ms), errors} as JSON.
import { readFileSync } from 'node:fs';
import pg from 'pg';

const argument = process.argv[2];
const {
  url,
  statements,
  concurrency,
  seconds,
  prepared = false,
} = JSON.parse(argument.startsWith('@') ? readFileSync(argument.slice(1), 'utf8') : argument);
const pool = new pg.Pool({ connectionString: url, max: concurrency });
const latencies = [];
let errors = 0;
let firstError;
const end = performance.now() + seconds * 1000;

async function worker() {
  while (performance.now() < end) {
    const started = performance.now();
    try {
      for (const [index, statement] of statements.entries()) {
        await pool.query(prepared ? { name: `replay-${index}`, text: statement.text, values: statement.values } : statement);
      }
      latencies.push(performance.now() - started);
    } catch (error) {
      errors += 1;
      firstError ??= String(error);
    }
  }
}
await Promise.all(Array.from({ length: concurrency }, () => worker()));
await pool.end();
process.stdout.write(JSON.stringify({ latencies, errors, firstError }));
