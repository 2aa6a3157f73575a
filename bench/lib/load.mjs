// A load generator in its own process: `node load.mjs <json | @file>` with {urls, concurrency, seconds, method?, headers?,
// urlHeaders? (one header set per URL, e.g. each URL with its own user's token), bodies?}. Workers loop over random URLs (and bodies) on keep-alive connections; the result is printed as JSON:
// {latencies (ms), errors, statuses, seconds}.
import { readFileSync } from 'node:fs';
import http from 'node:http';

// The settings come inline, or as '@file' when they are too long for a command line.
const argument = process.argv[2];
const {
  urls,
  concurrency,
  seconds,
  method = 'GET',
  headers = {},
  urlHeaders,
  bodies,
} = JSON.parse(argument.startsWith('@') ? readFileSync(argument.slice(1), 'utf8') : argument);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
const statuses = {};
let errors = 0;
const end = performance.now() + seconds * 1000;

function send(url, body, own) {
  const all = own ? { ...headers, ...own } : headers;
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method, agent, headers: body ? { ...all, 'content-type': 'application/json' } : all },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      },
    );
    request.on('error', () => resolve(0));
    if (body) request.write(body);
    request.end();
  });
}

async function worker(index) {
  let n = 0;
  while (performance.now() < end) {
    const pick = Math.floor(Math.random() * urls.length);
    const url = urls[pick];
    const body = bodies ? JSON.stringify(bodies[(index + n * concurrency) % bodies.length]) : undefined;
    n += 1;
    const started = performance.now();
    const status = await send(url, body, urlHeaders?.[pick]);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(performance.now() - started);
    else errors += 1;
  }
}
await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
agent.destroy();
process.stdout.write(JSON.stringify({ latencies, errors, statuses, seconds }));
