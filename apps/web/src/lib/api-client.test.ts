import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, buildUrl, isOwnApi, setAuthHandlers } from './api-client';
import { ApiError } from './api-error';

const ORIGIN = 'http://app.test';
const fetchMock = vi.fn<typeof fetch>();

function respond(
  status: number,
  body?: unknown,
  { statusText = '', headers = {} }: { statusText?: string; headers?: Record<string, string> } = {},
) {
  const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
  return new Response(text, { status, statusText, headers });
}

function call(index = 0) {
  const [url, init] = fetchMock.mock.calls[index] ?? [];
  return { url: String(url), init: init ?? {}, headers: (init?.headers ?? {}) as Record<string, string> };
}

/** Logged in with `token`, or logged out when it is undefined; `refresh` answers a 401. */
function signedIn(token: string | undefined, refresh: () => Promise<boolean> = async () => false) {
  const state = { token };
  const refreshMock = vi.fn(refresh);
  setAuthHandlers({ token: () => state.token, refresh: refreshMock });
  return { state, refreshMock };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', { location: { origin: ORIGIN } });
  signedIn(undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('buildUrl', () => {
  it('puts every path under the default API base /api/reviews (A-001)', () => {
    expect(buildUrl('proposals')).toBe('/api/reviews/proposals');
    expect(buildUrl('/users/me/')).toBe('/api/reviews/users/me/');
    expect(buildUrl('//users/token/login')).toBe('/api/reviews/users/token/login');
  });

  it('puts paths under another base when given one (A-002)', () => {
    expect(buildUrl('events/current', undefined, 'https://api.example.org/v2')).toBe('https://api.example.org/v2/events/current');
  });

  it('repeats the key of an array filter and keeps 0 and false, skipping empty values (§7)', () => {
    expect(
      buildUrl('reviews', { assessors: ['a', 'b'], page: 0, size: 25, flagged: false, title: '', category: null, event: undefined }),
    ).toBe('/api/reviews/reviews?assessors=a&assessors=b&page=0&size=25&flagged=false');
  });

  it('encodes query values and leaves out the ? when there is no query (§7)', () => {
    expect(buildUrl('proposals', { title: 'a&b c/d' })).toBe('/api/reviews/proposals?title=a%26b+c%2Fd');
    expect(buildUrl('proposals', {})).toBe('/api/reviews/proposals');
    expect(buildUrl('proposals', { ids: [] })).toBe('/api/reviews/proposals');
  });
});

describe('isOwnApi', () => {
  it('accepts addresses under the own API base, relative or absolute (A-114)', () => {
    expect(isOwnApi('/api/reviews/users/me/', '/api/reviews', ORIGIN)).toBe(true);
    expect(isOwnApi(`${ORIGIN}/api/reviews/proposals?page=0`, '/api/reviews', ORIGIN)).toBe(true);
    expect(isOwnApi('/api/reviews/x', '/api/reviews/', ORIGIN)).toBe(true);
    expect(isOwnApi('https://api.example.org/v2/x', 'https://api.example.org/v2', ORIGIN)).toBe(true);
  });

  it('rejects other origins, other paths and look-alike prefixes (A-115)', () => {
    expect(isOwnApi('https://evil.test/api/reviews/users/me/', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('//evil.test/api/reviews/x', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('http://app.test:8080/api/reviews/x', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('https://app.test/api/reviews/x', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('/api/reviewsX/x', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('/api/other', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('/api/reviews/../admin', '/api/reviews', ORIGIN)).toBe(false);
    expect(isOwnApi('/v2/x', 'https://api.example.org/v2', ORIGIN)).toBe(false);
  });

  it('uses the page origin from window.location by default (A-115)', () => {
    expect(isOwnApi(`${ORIGIN}/api/reviews/x`)).toBe(true);
    expect(isOwnApi('http://elsewhere.test/api/reviews/x')).toBe(false);
  });
});

describe('api: requests', () => {
  it('sends a GET under /api/reviews asking for JSON (A-001, A-117)', async () => {
    fetchMock.mockImplementation(async () => respond(200, { ok: 1 }));
    await expect(api('users/me/', { query: { page: 0 } })).resolves.toEqual({ ok: 1 });
    const { url, init, headers } = call();
    expect(url).toBe('/api/reviews/users/me/?page=0');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect(headers.accept).toBe('application/json');
    expect(headers['content-type']).toBeUndefined();
  });

  it('sends POST, PUT and DELETE with JSON bodies (A-117)', async () => {
    fetchMock.mockImplementation(async () => respond(200, true));
    await api('reviews/', { method: 'POST', body: { note: 'x', rating: 5 } });
    await api('reviews/1', { method: 'PUT', body: { rating: 0 } });
    await api('reviews/1', { method: 'DELETE' });
    expect(call(0).init.method).toBe('POST');
    expect(call(0).headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(call(0).init.body))).toEqual({ note: 'x', rating: 5 });
    expect(call(1).init.method).toBe('PUT');
    expect(call(1).init.body).toBe('{"rating":0}');
    expect(call(2).init.method).toBe('DELETE');
    expect(call(2).init.body).toBeUndefined();
  });

  it('sends a form-encoded body for login (A-054, A-117)', async () => {
    fetchMock.mockImplementation(async () => respond(200, { access_token: 't', token_type: 'bearer' }));
    await api('users/token/login', { method: 'POST', form: { username: 'cardano/abc#x', password: 'p w&d' } });
    const { url, init, headers } = call();
    expect(url).toBe('/api/reviews/users/token/login');
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(init.body).toBe('username=cardano%2Fabc%23x&password=p+w%26d');
  });

  it('attaches the bearer token to the own API base when logged in (A-114)', async () => {
    signedIn('tok-123');
    fetchMock.mockImplementation(async () => respond(200, {}));
    await api('users/me/');
    expect(call().headers.authorization).toBe('Bearer tok-123');
  });

  it('attaches no bearer token when logged out (A-116)', async () => {
    signedIn(undefined);
    fetchMock.mockImplementation(async () => respond(200, {}));
    await api('users/me/');
    expect(call().headers).not.toHaveProperty('authorization');
    signedIn('');
    await api('users/me/');
    expect(call(1).headers).not.toHaveProperty('authorization');
  });

  it('sends requests to the runtime API base and treats it as its own (A-002, A-114)', async () => {
    vi.resetModules();
    vi.stubGlobal('window', { location: { origin: ORIGIN }, __ENV__: { API_BASE: 'https://api.example.org/v2/' } });
    const client = await import('./api-client');
    client.setAuthHandlers({ token: () => 'tok', refresh: async () => false });
    fetchMock.mockImplementation(async () => respond(200, {}));
    await client.api('events/current');
    expect(call().url).toBe('https://api.example.org/v2/events/current');
    expect(call().headers.authorization).toBe('Bearer tok');
    expect(client.isOwnApi('/api/reviews/x')).toBe(false);
  });
});

describe('api: answers', () => {
  it('accepts a success answer with an empty body (A-119)', async () => {
    fetchMock.mockImplementation(async () => respond(204));
    await expect(api('users/token/logout', { method: 'POST' })).resolves.toBeUndefined();
    fetchMock.mockImplementation(async () => respond(200, ''));
    await expect(api('x')).resolves.toBeUndefined();
  });

  it('returns a non-JSON success body as text (A-119)', async () => {
    fetchMock.mockImplementation(async () => respond(200, 'plain'));
    await expect(api('x')).resolves.toBe('plain');
  });

  it("rejects with the status and the body's message (A-120)", async () => {
    fetchMock.mockImplementation(async () => respond(400, { message: 'Your activation link has expired.' }, { statusText: 'Bad Request' }));
    const error = await api('users/activate', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Your activation link has expired.',
      serverMessage: 'Your activation link has expired.',
    });
  });

  it('rejects with the labelled detail messages joined by line breaks (A-120, A-121, A-122)', async () => {
    fetchMock.mockResolvedValue(
      respond(422, {
        detail: [
          { loc: ['body', 'new_user', 'password'], msg: 'too short', type: 'x' },
          { loc: ['body', 'zzz'], msg: 'odd', type: 'x' },
        ],
      }),
    );
    await expect(api('users/', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 422, message: 'Password: too short\nodd' });
  });

  it('rejects with the status text when the body has no message (A-120)', async () => {
    fetchMock.mockImplementation(async () => respond(502, '<html>bad gateway</html>', { statusText: 'Bad Gateway' }));
    await expect(api('x')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway', serverMessage: undefined });
    fetchMock.mockImplementation(async () => respond(500));
    await expect(api('x')).rejects.toMatchObject({ status: 500, message: 'HTTP 500' });
  });
});

describe('api: 401 refresh and retry', () => {
  it('refreshes once on a 401 and retries with the new token (§7)', async () => {
    const { state, refreshMock } = signedIn('old', async () => {
      state.token = 'new';
      return true;
    });
    fetchMock.mockResolvedValueOnce(respond(401, { message: 'expired' })).mockResolvedValueOnce(respond(200, { id: 7 }));
    await expect(api('users/me/', { query: { a: 1 } })).resolves.toEqual({ id: 7 });
    expect(refreshMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(call(0).headers.authorization).toBe('Bearer old');
    expect(call(1).headers.authorization).toBe('Bearer new');
    expect(call(1).url).toBe('/api/reviews/users/me/?a=1');
  });

  it('does not refresh a second time when the retry answers 401 too (§7)', async () => {
    const { refreshMock } = signedIn('tok', async () => true);
    fetchMock.mockImplementation(async () => respond(401, { message: 'still no' }));
    await expect(api('users/me/')).rejects.toMatchObject({ status: 401, message: 'still no' });
    expect(refreshMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('rejects with the 401 when the refresh fails, without retrying (§7)', async () => {
    const { refreshMock } = signedIn('tok', async () => false);
    fetchMock.mockImplementation(async () => respond(401, { message: 'expired' }));
    await expect(api('users/me/')).rejects.toMatchObject({ status: 401, message: 'expired' });
    expect(refreshMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('does not refresh a 401 of a call made without a token or marked as a retry (§7)', async () => {
    const { refreshMock } = signedIn(undefined, async () => true);
    fetchMock.mockImplementation(async () => respond(401, { message: 'Login failed' }));
    await expect(api('users/token/login', { method: 'POST', form: { username: 'u', password: 'p' } })).rejects.toMatchObject({
      status: 401,
    });
    expect(refreshMock).not.toHaveBeenCalled();
    const second = signedIn('tok', async () => true);
    await expect(api('users/token/refresh', { retried: true })).rejects.toMatchObject({ status: 401 });
    expect(second.refreshMock).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not refresh on 403 (§7)', async () => {
    const { refreshMock } = signedIn('tok', async () => true);
    fetchMock.mockImplementation(async () => respond(403, { message: 'Forbidden for you' }));
    await expect(api('admin/users')).rejects.toMatchObject({ status: 403, message: 'Forbidden for you' });
    expect(refreshMock).not.toHaveBeenCalled();
  });
});

describe('api: downloads', () => {
  function stubDocument() {
    const link = { href: '', download: '', click: vi.fn(), remove: vi.fn() };
    const append = vi.fn();
    vi.stubGlobal('document', { createElement: vi.fn(() => link), body: { append } });
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:saved');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    return { link, append, created };
  }

  it('saves a GET download as a file named by the answer (A-118)', async () => {
    const { link, append, created } = stubDocument();
    fetchMock.mockImplementation(async () =>
      respond(200, 'a,b\n1,2', { headers: { 'content-disposition': 'attachment; filename="reviews.csv"', 'content-type': 'text/csv' } }),
    );
    await expect(api('exports/reviews', { download: true, query: { event: 3 } })).resolves.toBeUndefined();
    expect(call().url).toBe('/api/reviews/exports/reviews?event=3');
    expect(call().init.method).toBe('GET');
    expect(call().headers.accept).toBe('*/*');
    expect(created).toHaveBeenCalledTimes(1);
    const blob = created.mock.calls[0]![0] as Blob;
    expect(await blob.text()).toBe('a,b\n1,2');
    expect(link.href).toBe('blob:saved');
    expect(link.download).toBe('reviews.csv');
    expect(append).toHaveBeenCalledWith(link);
    expect(link.click).toHaveBeenCalledTimes(1);
    expect(link.remove).toHaveBeenCalledTimes(1);
  });

  it('saves a POST download, preferring the UTF-8 file name (A-118)', async () => {
    const { link } = stubDocument();
    fetchMock.mockResolvedValue(
      respond(200, 'x', {
        headers: { 'content-disposition': `attachment; filename="fallback.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9%20final.csv` },
      }),
    );
    await api('exports/custom', { method: 'POST', body: { ids: [1] }, download: true });
    expect(call().init.method).toBe('POST');
    expect(call().init.body).toBe('{"ids":[1]}');
    expect(link.download).toBe('résumé final.csv');
    expect(link.click).toHaveBeenCalledTimes(1);
  });

  it("names a download 'download' when the answer gives no name (A-118)", async () => {
    const { link } = stubDocument();
    fetchMock.mockImplementation(async () => respond(200, 'x'));
    await api('exports/x', { download: true });
    expect(link.download).toBe('download');
  });

  it('saves nothing and rejects when a download fails (A-118, A-120)', async () => {
    const { link, created } = stubDocument();
    fetchMock.mockImplementation(async () => respond(404, { message: 'No export' }, { statusText: 'Not Found' }));
    await expect(api('exports/x', { download: true })).rejects.toMatchObject({ status: 404, message: 'No export' });
    expect(created).not.toHaveBeenCalled();
    expect(link.click).not.toHaveBeenCalled();
  });
});
