import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { earlyFetchScript, FIRST_READS } from '../src/plugins/early-fetch';

/**
 * Issue 30 item 5: index.html's inline script asks for a page's first reads while the app's code downloads. Run here
 * as a browser runs it, with a stand-in fetch, location and localStorage: what it asks for, with which token.
 */
function run(
  path: string,
  {
    session,
    search = '',
    events = [{ row_id: 2 }, { row_id: 3 }],
    base = '/api/reviews',
    historyState = null,
  }: {
    session?: unknown;
    search?: string;
    events?: unknown;
    base?: string;
    historyState?: unknown;
  } = {},
) {
  const asked: { url: string; authorization?: string }[] = [];
  const window: { __crEarly?: Record<string, { token?: string; at: number; response: Promise<unknown> }> } = {};
  const fetch = (url: string, init: { headers: Record<string, string>; credentials: string }) => {
    expect(init.credentials).toBe('same-origin');
    expect(init.headers.accept).toBe('application/json');
    asked.push({ url, authorization: init.headers.authorization });
    const body = url.endsWith('events/current/') ? events : {};
    const response = { ok: true, clone: () => ({ json: async () => body }) };
    return Promise.resolve(response);
  };
  const localStorage = { getItem: (key: string) => (key === 'session' && session ? JSON.stringify(session) : null) };
  const history = {
    state: historyState,
    replaceState(state: unknown, title: string) {
      expect(title).toBe('');
      history.state = state;
    },
  };
  runInNewContext(earlyFetchScript(base)!, {
    window,
    fetch,
    localStorage,
    history,
    location: { pathname: path, search },
    Date,
    JSON,
    RegExp,
    Object,
  });
  return { asked, early: window.__crEarly!, history };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const signedIn = (token: string, expiresIn = 3_600_000) => ({
  state: { logged: true, auth: { access_token: token, expires_at: Date.now() + expiresIn } },
  version: 0,
});

describe('the early reads of index.html', () => {
  it('asks every page for the status messages, the current rounds and then their settings', async () => {
    const { asked, early } = run('/reviews');
    await settle();
    expect(asked.map(({ url }) => url)).toEqual([
      '/api/reviews/configs/status/',
      '/api/reviews/events/current/',
      '/api/reviews/configs/reviews/2/',
      '/api/reviews/configs/reviews/3/',
    ]);
    expect(Object.keys(early)).toEqual(asked.map(({ url }) => url));
    expect(early['/api/reviews/configs/status/']!.token).toBeUndefined();
  });

  it("asks for a page's first read, for visitors where the page is public", async () => {
    const cases: [string, string | undefined][] = [
      ['/proposals', '/api/reviews/proposals/?size=25&page=0'],
      ['/proposal/17', '/api/reviews/proposals/17/'],
      ['/review/5/', '/api/reviews/proposal-reviews/5/'],
      ['/profile', undefined],
      ['/allocated-reviews', undefined],
      ['/proposal/abc', undefined],
    ];
    for (const [path, read] of cases) {
      const urls = run(path).asked.map(({ url }) => url);
      expect(urls.slice(2), path).toEqual(read ? [read] : []);
    }
  });

  it('asks with the stored token, and the signed-in pages’ reads only with one', async () => {
    const { asked, early } = run('/allocated-proposals', { session: signedIn('tok-1') });
    expect(asked.map(({ url }) => url).slice(2)).toEqual(['/api/reviews/proposals/allocated?size=25&page=0']);
    expect(asked.every(({ authorization }) => authorization === 'Bearer tok-1')).toBe(true);
    expect(early['/api/reviews/proposals/allocated?size=25&page=0']!.token).toBe('tok-1');
    for (const path of ['/profile', '/admin', '/admin/events', '/allocated-reviews']) {
      expect(run(path, { session: signedIn('tok-1') }).asked.length, path).toBe(3);
    }
    // A token the app refreshes as it starts (within 50 s of its expiry): its reads would go with the new one, so
    // nothing is asked early.
    expect(run('/profile', { session: signedIn('tok-2', 49_000) }).asked).toEqual([]);
    expect(run('/profile', { session: signedIn('tok-2', 51_000) }).asked).toHaveLength(3);
  });

  it('asks for no page read when the address has a query (a filtered or later page)', () => {
    expect(run('/proposals', { search: '?page=2' }).asked).toHaveLength(2);
  });

  it('survives a broken session or answer, and is absent for an API on another origin', async () => {
    const broken = run('/proposal/1', { session: 'not json {', events: { not: 'a list' } });
    await settle();
    expect(broken.asked.map(({ url }) => url)).toEqual([
      '/api/reviews/configs/status/',
      '/api/reviews/events/current/',
      '/api/reviews/proposals/1/',
    ]);
    expect(earlyFetchScript('https://api.example.org/api/reviews')).toBeUndefined();
    expect(earlyFetchScript('//api.example.org/api/reviews')).toBeUndefined();
    expect(run('/', { base: '/api/other/' }).asked[0]!.url).toBe('/api/other/configs/status/');
    // Nothing from the configuration can close the script element.
    expect(earlyFetchScript('/api/</script><script>alert(1)//')).not.toContain('</script>');
  });

  it('gives the history entry the index the router would write, keeping what the entry holds', () => {
    expect(run('/').history.state).toEqual({ idx: 0 });
    expect(run('/', { historyState: { usr: { from: 'x' }, key: 'k' } }).history.state).toEqual({ usr: { from: 'x' }, key: 'k', idx: 0 });
    // A reload or a step back keeps the entry's own index.
    expect(run('/', { historyState: { idx: 4, key: 'k' } }).history.state).toEqual({ idx: 4, key: 'k' });
  });

  it('names a first read for each page that has one, each under the API base', () => {
    expect(FIRST_READS.map(({ read }) => read).every((read) => !read.startsWith('/'))).toBe(true);
  });
});
