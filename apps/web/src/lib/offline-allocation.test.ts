import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheReader, isKept, walkAllocation, type OfflineRead, type Reader, type ReadResult } from './offline-allocation';

/** Issue 45 item 1: what the allocation needs offline, read through a network or a cache (here, a map of answers). */
const SIZES = { proposals: 2, reviews: 25, concurrency: 2 };
const key = ({ path, query }: OfflineRead) => (query ? `${path}?${new URLSearchParams(query as Record<string, string>)}` : path);

function readerOf(answers: Record<string, ReadResult>) {
  const asked: string[] = [];
  const read: Reader = async (item) => {
    asked.push(key(item));
    return answers[key(item)];
  };
  return { read, asked };
}

const ok = (body: unknown): ReadResult => ({ status: 200, body });
const page = (rows: { row_id: number; event_id: number }[], total: number) => ok({ data: rows, page: { total } });

/** Three proposals over two pages (size 2), in events 7 and 8; event 7 is current. */
function allocation(): Record<string, ReadResult> {
  const answers: Record<string, ReadResult> = {
    'users/me/': ok({ id: 'me' }),
    'events/current/': ok([{ row_id: 7 }]),
    'proposals/allocated?size=2&page=0': page(
      [
        { row_id: 11, event_id: 7 },
        { row_id: 12, event_id: 7 },
      ],
      3,
    ),
    'proposals/allocated?size=2&page=1': page([{ row_id: 13, event_id: 8 }], 3),
    'configs/reviews/7/': ok({ value: {} }),
    'configs/reviews/8/': ok({ value: {} }),
  };
  for (const id of [11, 12, 13]) {
    answers[`proposals/${id}/`] = ok({ row_id: id });
    answers[`proposals/${id}/submitted-review/`] = id === 12 ? { status: 404 } : ok({ row_id: 100 + id });
    answers[`proposal-reviews/filtered?size=25&page=0&proposal_id=${id}`] = page([], 0);
  }
  return answers;
}

describe('walkAllocation (issue 45 item 1)', () => {
  it('reads every page of the list, each proposal, the own review, its reviews and each round’s settings once', async () => {
    const { read, asked } = readerOf(allocation());
    const copy = await walkAllocation(read, SIZES);
    expect(copy).toEqual({ total: 3, missing: [] });
    expect(isKept(copy)).toBe(true);
    expect([...asked].sort()).toEqual(Object.keys(allocation()).sort());
  });

  it('counts “no review yet” (a 404 of the own review) as kept, and no other 404 or error', async () => {
    const answers = allocation();
    answers['proposals/13/'] = { status: 404 };
    answers['proposal-reviews/filtered?size=25&page=0&proposal_id=11'] = { status: 503 };
    const copy = await walkAllocation(readerOf(answers).read, SIZES);
    expect(copy.missing.map(key).sort()).toEqual(['proposal-reviews/filtered?size=25&page=0&proposal_id=11', 'proposals/13/']);
    expect(isKept(copy)).toBe(false);
  });

  it('without a later page, its proposals are not known, and the page itself is missing', async () => {
    const answers = allocation();
    delete answers['proposals/allocated?size=2&page=1'];
    const { read, asked } = readerOf(answers);
    const copy = await walkAllocation(read, SIZES);
    expect(copy.missing.map(key)).toEqual(['proposals/allocated?size=2&page=1']);
    expect(asked).not.toContain('proposals/13/');
    expect(asked).not.toContain('configs/reviews/8/');
  });

  it('without the list, nothing is kept (total 0, the list missing)', async () => {
    const copy = await walkAllocation(readerOf({}).read, SIZES);
    expect(copy.total).toBe(0);
    expect(copy.missing.map(key).sort()).toEqual(['events/current/', 'proposals/allocated?size=2&page=0', 'users/me/']);
  });

  it('an empty allocation is kept once the profile, the rounds and the empty list are', async () => {
    const copy = await walkAllocation(
      readerOf({ 'users/me/': ok({}), 'events/current/': ok([]), 'proposals/allocated?size=2&page=0': page([], 0) }).read,
      SIZES,
    );
    expect(copy).toEqual({ total: 0, missing: [] });
  });

  it('never has more reads in flight than its limit', async () => {
    const answers = allocation();
    let inFlight = 0;
    let most = 0;
    const read: Reader = async (item) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return answers[key(item)];
    };
    await walkAllocation(read, { ...SIZES, concurrency: 2 });
    // The list's first page, the profile and the rounds go together; then at most two at a time.
    expect(most).toBeLessThanOrEqual(3);
  });
});

describe('cacheReader', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers a kept 200 with its body, a kept 404 with its status, and nothing for what is not kept', async () => {
    const kept: Record<string, Response> = {
      '/api/proposals/1/': new Response(JSON.stringify({ row_id: 1 }), { status: 200 }),
      '/api/proposals/1/submitted-review/': new Response('{"detail":"none"}', { status: 404 }),
    };
    const match = vi.fn(async (url: string, options: { cacheName: string }) => (options.cacheName === 'cr-api' ? kept[url] : undefined));
    vi.stubGlobal('caches', { match });
    const read = cacheReader('cr-api', ({ path }) => `/api/${path}`);
    await expect(read({ path: 'proposals/1/' })).resolves.toEqual({ status: 200, body: { row_id: 1 } });
    await expect(read({ path: 'proposals/1/submitted-review/' })).resolves.toEqual({ status: 404, body: undefined });
    await expect(read({ path: 'proposals/2/' })).resolves.toBeUndefined();
  });
});
