import { createHash } from 'node:crypto';

/**
 * The first API reads of a page, started by index.html itself while the app's code downloads (issue 30 item 5).
 *
 * A page's data used to wait for the app's code to arrive and run (a phone on a slow network: the entry and the page's
 * chunks, then their evaluation) before its first request left; the largest paint of most pages then waited one more
 * round trip, or two (the current rounds, then their settings). This script, inline in the page so that it costs no
 * request of its own, asks for what every page reads first — the status messages, the current rounds and their
 * settings — and, on the pages whose first screen is one read, that read: with the same URL and the same bearer token
 * the app would use. The app (apps/web/src/lib/api-client.ts) takes such an answer once, if it is recent, a success and
 * fetched with the token it holds now; otherwise it asks again as before. Each entry is a promise of the Response, and
 * what asked for it (the token), under `window.__crEarly[url]`.
 *
 * It also gives the page's history entry the index the app's router (React Router) would write as it starts, if none:
 * the router reads it rather than writing it, a write that cost ~8 ms of the app's start on a desktop (×4 on a phone),
 * while here the page waits for its stylesheet anyway.
 *
 * The CSP allows it by its hash (plugins/security-headers.ts), not by allowing inline scripts.
 */

/** A page's first read: on a path matching `path` with no query, `read` ($1 is the path's first group); `signedIn` only with a token. */
interface FirstRead {
  path: string;
  read: string;
  signedIn?: boolean;
}

/** Keep in step with the pages' first queries (apps/web/e2e/first-load.spec.ts checks each is asked once). */
export const FIRST_READS: readonly FirstRead[] = [
  { path: '^/proposals/?$', read: 'proposals/?size=25&page=0' },
  { path: '^/proposal/(\\d+)/?$', read: 'proposals/$1/' },
  { path: '^/review/(\\d+)/?$', read: 'proposal-reviews/$1/' },
  { path: '^/allocated-proposals/?$', read: 'proposals/allocated?size=25&page=0', signedIn: true },
  { path: '^/allocated-reviews/?$', read: 'proposal-reviews/allocated/?size=25&page=0', signedIn: true },
  { path: '^/profile/?$', read: 'users/me/', signedIn: true },
  { path: '^/admin(/events)?/?$', read: 'events/?size=25&page=0', signedIn: true },
];

/** The session the app persists (lib/session.ts, zustand's persist): its key in localStorage. */
const SESSION_KEY = 'session';
/**
 * How long before its token expires the app refreshes it (apps/web/src/lib/session.ts `REFRESH_LEAD_MS`): a session
 * closer to its expiry than this starts with a refresh, so its first reads go with another token and nothing is asked
 * early.
 */
const REFRESH_LEAD_MS = 50_000;

/** The script's text for an API under `apiBase` (a path on this origin), or undefined for an API elsewhere. */
export function earlyFetchScript(apiBase: string): string | undefined {
  if (!apiBase.startsWith('/') || apiBase.startsWith('//')) return undefined;
  const base = `${apiBase.replace(/\/+$/, '')}/`;
  // JSON in a <script>: no '<' of its own, so that nothing in it can close the element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  // Plain ES2017, no module: it runs as the parser meets it. Nothing it does may throw into the page.
  return `(function(){try{var early=window.__crEarly={},base=${json(base)},token;
try{var h=history.state;if(!h||h.idx==null)history.replaceState(Object.assign({},h,{idx:0}),"")}catch(e){}
try{var s=JSON.parse(localStorage.getItem(${json(SESSION_KEY)})||"null");s=s&&s.state;
if(s&&s.logged&&s.auth&&s.auth.access_token){if(!(s.auth.expires_at>Date.now()+${REFRESH_LEAD_MS}))return;token=s.auth.access_token}}catch(e){}
function get(path,signedIn){if(signedIn&&!token)return;var headers={accept:"application/json"};if(token)headers.authorization="Bearer "+token;
var response=fetch(base+path,{headers:headers,credentials:"same-origin"});response.catch(function(){});
early[base+path]={token:token,at:Date.now(),response:response};return response}
get("configs/status/");
get("events/current/").then(function(r){return r.ok?r.clone().json():[]}).then(function(events){
events.forEach(function(e){if(e&&typeof e.row_id==="number")get("configs/reviews/"+e.row_id+"/")})}).catch(function(){});
if(location.search)return;var reads=${json(FIRST_READS.map(({ path, read, signedIn }) => [path, read, signedIn === true]))};
for(var i=0;i<reads.length;i++){var m=new RegExp(reads[i][0]).exec(location.pathname);
if(m){get(reads[i][1].replace("$1",m[1]),reads[i][2]);break}}}catch(e){}})();`;
}

/** The CSP source that allows exactly this script: `'sha256-…'`. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}
