// A load generator in its own process: `node load.mjs <json | @file>` with {urls, concurrency, seconds, method?, headers?,
// urlHeaders? (one header set per URL, e.g. each URL with its own user's token), bodies?, bodyHeaders? (one header set
// per body, e.g. each login with its own device cookie)}. Workers loop over random
// URLs (and bodies) on keep-alive connections; the result is printed as JSON: {latencies (ms), errors, statuses,
// seconds}. Bodies are sent as JSON, or as given when `headers` names a content type.
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
  bodyHeaders,
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
      { method, agent, headers: body ? { 'content-type': 'application/json', ...all } : all },
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
    const at = bodies ? (index + n * concurrency) % bodies.length : 0;
    const item = bodies?.[at];
    // JSON unless the settings name another content type (a form body is sent as the string given).
    const body = item === undefined ? undefined : headers['content-type'] ? String(item) : JSON.stringify(item);
    n += 1;
    const started = performance.now();
    const own = bodyHeaders?.[at] ? { ...urlHeaders?.[pick], ...bodyHeaders[at] } : urlHeaders?.[pick];
    const status = await send(url, body, own);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(performance.now() - started);
    else errors += 1;
  }
}
await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
agent.destroy();
process.stdout.write(JSON.stringify({ latencies, errors, statuses, seconds }));
