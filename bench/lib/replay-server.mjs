// The limit of an endpoint: a bare Fastify route that replays, on a pool like the server's (10 connections), the SQL
// the endpoint ran (captured by lib/processes.ts `captureQueries`), one statement after the other, and answers the
// rows as JSON. `node replay-server.mjs <database url> <@file of [[{text, values, rowMode}…]…]>`; GET /replay/:i
// replays the i-th captured request. Prints `{"port": n}` once it listens.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const [url, file] = process.argv.slice(2);
const requests = JSON.parse(readFileSync(file.slice(1), 'utf8'));
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });
app.get('/replay/:i', async (request) => {
  const queries = requests[Number(request.params.i) % requests.length];
  const answers = [];
  for (const query of queries) answers.push((await pool.query(query)).rows);
  return answers;
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port })}\n`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
