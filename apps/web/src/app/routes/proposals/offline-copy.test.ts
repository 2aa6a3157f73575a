import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentEventsQuery, eventConfigQuery } from '../../../features/events/api/events';
import { PROPOSALS_PAGE_SIZE, allocatedProposalsQuery, proposalQuery } from '../../../features/proposals/api/proposals';
import { ownReviewQuery } from '../../../features/reviews/api/get-own-review';
import { proposalReviewsQuery } from '../../../features/reviews/api/get-reviews';
import { REVIEWS_PAGE_SIZE } from '../../../features/reviews/api/keys';
import { buildUrl } from '../../../lib/api-client';
import { allocatedPageRead, currentEventsRead, eventConfigRead, proposalReads, type OfflineRead } from '../../../lib/offline-allocation';

/**
 * Issue 45 item 1: the service worker keeps answers by URL, so the reads that keep the allocation must ask exactly the
 * URLs the screens' own queries ask, or the copy is kept and never found offline.
 */
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => new Response(JSON.stringify({ data: [], page: { total: 0 }, value: {} }), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('window', { location: { origin: 'http://app.test' } });
});
afterEach(() => vi.unstubAllGlobals());

/** The URL a screen's query asks. */
async function askedBy(options: { queryKey: readonly unknown[]; queryFn?: unknown }) {
  fetchMock.mockClear();
  await new QueryClient().fetchQuery(options as Parameters<QueryClient['fetchQuery']>[0]);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  return String(fetchMock.mock.calls[0]![0]);
}
const urlOf = ({ path, query }: OfflineRead) => buildUrl(path, query);

describe('the offline copy asks what the screens ask (issue 45 item 1)', () => {
  it('My proposals: every page of the list', async () => {
    for (const page of [0, 3])
      expect(urlOf(allocatedPageRead(page, PROPOSALS_PAGE_SIZE))).toBe(await askedBy(allocatedProposalsQuery(page)));
  });

  it('the current rounds and a round’s settings', async () => {
    expect(urlOf(currentEventsRead)).toBe(await askedBy(currentEventsQuery));
    expect(urlOf(eventConfigRead(7))).toBe(await askedBy(eventConfigQuery(7)));
  });

  it('a proposal’s page: the proposal, the own review and the first page of its reviews', async () => {
    const [proposal, own, reviews] = proposalReads(42, REVIEWS_PAGE_SIZE).map(urlOf);
    expect(proposal).toBe(await askedBy(proposalQuery(42)));
    expect(own).toBe(await askedBy(ownReviewQuery(42)));
    expect(reviews).toBe(await askedBy(proposalReviewsQuery(42, 0)));
  });
});
