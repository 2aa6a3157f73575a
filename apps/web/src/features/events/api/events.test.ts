import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const notifyError = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/notify', () => ({ notifyError, notifySuccess: vi.fn() }));

import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-error';
import { EVENTS_POLL_MS, STATUS_POLL_MS, currentEventsQuery, eventConfigQuery, eventsPageQuery, eventsKeys, statusQuery } from './events';

const ORIGIN = 'http://app.test';
const fetchMock = vi.fn<typeof fetch>();

function respond(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The URL of the n-th fetch call, parsed. */
function requested(index = 0) {
  const [url, init] = fetchMock.mock.calls[index] ?? [];
  return { url: new URL(String(url), ORIGIN), method: init?.method ?? 'GET' };
}

/** A fresh client (no retries, no cache) that runs a query's queryFn the way the app does. */
const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

beforeEach(() => {
  fetchMock.mockReset();
  notifyError.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', { location: { origin: ORIGIN } });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('polling (spec §7, §9)', () => {
  it('reloads the current events every 5 minutes (B-006)', () => {
    expect(EVENTS_POLL_MS).toBe(5 * 60 * 1000);
    expect(currentEventsQuery.refetchInterval).toBe(300_000);
  });

  it("reloads each current event's config every 5 minutes (B-006)", () => {
    expect(eventConfigQuery(1).refetchInterval).toBe(300_000);
    expect(eventConfigQuery(42).refetchInterval).toBe(300_000);
    expect(eventConfigQuery(42).queryKey).toEqual(eventsKeys.config(42));
  });

  it('reloads the status messages every 2 minutes (B-017)', () => {
    expect(STATUS_POLL_MS).toBe(2 * 60 * 1000);
    expect(statusQuery.refetchInterval).toBe(120_000);
  });

  it('does not poll the paged events list', () => {
    expect(eventsPageQuery(0, 25).refetchInterval).toBeUndefined();
  });
});

describe('eventsPageQuery (B-023, B-024, B-025)', () => {
  it('asks GET events/ for 25 events of the given page and answers data and page.total (B-023, B-024)', async () => {
    const answer = {
      data: [{ row_id: 7, name: 'Fund 15', description: 'd', active: true, start_time: null, end_time: null }],
      page: { total: 26, size: 25, page: 1 },
    };
    fetchMock.mockResolvedValue(respond(200, answer));
    const result = await client().fetchQuery(eventsPageQuery(1, 25));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const { url, method } = requested();
    expect(method).toBe('GET');
    expect(url.pathname).toBe('/api/reviews/events/');
    expect(url.searchParams.get('size')).toBe('25');
    expect(url.searchParams.get('page')).toBe('1');
    expect(result).toEqual(answer);
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('uses 25 a page by default and asks for page 0 as 0 (the table itself: B-023 in e2e/checklist-audit.spec.ts)', async () => {
    fetchMock.mockResolvedValue(respond(200, { data: [], page: { total: 0, size: 25, page: 0 } }));
    await client().fetchQuery(eventsPageQuery(0));
    const { url } = requested();
    expect(url.searchParams.get('size')).toBe('25');
    expect(url.searchParams.get('page')).toBe('0');
    expect(eventsPageQuery(3).queryKey).toEqual(eventsKeys.page(3, 25));
  });

  it('answers an empty list with total 0 and shows the error toast when the server fails (B-025)', async () => {
    fetchMock.mockResolvedValue(respond(500));
    const result = await client().fetchQuery(eventsPageQuery(2, 25));
    expect(result).toEqual({ data: [], page: { total: 0, size: 25, page: 2 } });
    expect(notifyError).toHaveBeenCalledTimes(1);
    expect(notifyError).toHaveBeenCalledWith(expect.any(ApiError), 'errors.fetchEvents');
    expect(notifyError.mock.calls[0]![0]).toMatchObject({ status: 500 });
  });

  it('answers an empty list with total 0 and shows the error toast when the network fails (B-025)', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const result = await client().fetchQuery(eventsPageQuery(0, 25));
    expect(result).toEqual({ data: [], page: { total: 0, size: 25, page: 0 } });
    expect(notifyError).toHaveBeenCalledWith(expect.any(TypeError), 'errors.fetchEvents');
  });
});

describe('current events and configs on failure (B-003, B-005)', () => {
  it('asks GET events/current/ and answers the list (B-002)', async () => {
    const events = [{ row_id: 1, name: 'Fund 15', description: 'd', active: true, start_time: null, end_time: null }];
    fetchMock.mockResolvedValue(respond(200, events));
    await expect(client().fetchQuery(currentEventsQuery)).resolves.toEqual(events);
    expect(requested().url.pathname).toBe('/api/reviews/events/current/');
  });

  it('answers no current events and toasts when fetching them fails (B-003)', async () => {
    fetchMock.mockResolvedValue(respond(500));
    await expect(client().fetchQuery(currentEventsQuery)).resolves.toEqual([]);
    expect(notifyError).toHaveBeenCalledWith(expect.any(ApiError), 'errors.fetchCurrentEvents');
  });

  it('reads value of GET configs/reviews/{id}/ (B-004)', async () => {
    fetchMock.mockResolvedValue(
      respond(200, { row_id: 3, id: 'reviews', id2: '9', value: { event_id: 9, review_submission_enabled: true } }),
    );
    await expect(client().fetchQuery(eventConfigQuery(9))).resolves.toEqual({ event_id: 9, review_submission_enabled: true });
    expect(requested().url.pathname).toBe('/api/reviews/configs/reviews/9/');
  });

  it('answers no configuration and toasts when fetching configs fails (B-005)', async () => {
    fetchMock.mockResolvedValue(respond(500));
    await expect(client().fetchQuery(eventConfigQuery(9))).resolves.toBeNull();
    expect(notifyError).toHaveBeenCalledWith(expect.any(ApiError), 'errors.fetchConfigs');
  });
});

describe('statusQuery (B-042)', () => {
  it('reads value.messages of GET configs/status/', async () => {
    const messages = [{ row_id: 1, message: '<b>x</b>', severity: 'info', is_active: true, action_text: null, action_url: null }];
    fetchMock.mockResolvedValue(respond(200, { row_id: 1, id: 'status', id2: '', value: { messages } }));
    await expect(client().fetchQuery(statusQuery)).resolves.toEqual(messages);
    expect(requested().url.pathname).toBe('/api/reviews/configs/status/');
  });

  it('rejects when the fetch fails, so the Status tab can show its error toast (B-046)', async () => {
    fetchMock.mockResolvedValue(respond(500));
    await expect(client().fetchQuery(statusQuery)).rejects.toMatchObject({ status: 500 });
  });
});
