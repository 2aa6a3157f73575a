/**
 * What a reviewer's allocation needs to be read offline (issue 45 item 1), and whether it is kept: the API reads the
 * reviewer's screens make — the profile, the current rounds and their settings, every page of *My proposals*, and for
 * each allocated proposal the proposal, the reviewer's own review (or the answer that there is none, a 404) and the
 * first page of its reviews — each as the app's own query asks it, since the service worker keeps answers by URL.
 *
 * One walk serves both uses: through the network (the worker keeps each answer as it passes) and through the worker's
 * cache (is everything kept?). The allocation's rows come from the list pages the reader answers, so offline the walk
 * finds the proposals from the kept list itself.
 */

export type ReadQuery = Record<string, string | number>;

export interface OfflineRead {
  path: string;
  query?: ReadQuery;
  /** A 404 is an answer worth keeping (the reviewer's own review: none yet, issue 45 item 2). */
  notFoundIsAnswer?: boolean;
}

/** What a read got: the answer's status and its JSON body (for a 200), or nothing (no connection, nothing kept). */
export type ReadResult = { status: number; body?: unknown } | undefined;
export type Reader = (read: OfflineRead) => Promise<ReadResult>;

export interface AllocationSizes {
  /** Page size of *My proposals* (the app's query asks pages of this size). */
  proposals: number;
  /** Page size of a proposal's reviews. */
  reviews: number;
  /** Reads in flight at once (the walk runs beside the page's own reads). */
  concurrency?: number;
}

export interface AllocationCopy {
  /** How many proposals are allocated (0 when the list's first page is not there). */
  total: number;
  /** The reads without a usable answer. */
  missing: OfflineRead[];
}

/** Whether a walk found everything the allocation needs. */
export const isKept = (copy: AllocationCopy) => copy.missing.length === 0;

interface Row {
  row_id: number;
  event_id?: number | null;
}

const rowsOf = (body: unknown): Row[] => {
  const data = (body as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data as Row[]).filter((row) => typeof row?.row_id === 'number') : [];
};
const totalOf = (body: unknown): number => {
  const total = (body as { page?: { total?: unknown } } | undefined)?.page?.total;
  return typeof total === 'number' && total > 0 ? total : 0;
};

/** The reads of the allocation's fixed part: the profile, the current rounds, the list's first page. */
export const profileRead: OfflineRead = { path: 'users/me/' };
export const currentEventsRead: OfflineRead = { path: 'events/current/' };
export const allocatedPageRead = (page: number, size: number): OfflineRead => ({ path: 'proposals/allocated', query: { size, page } });
export const eventConfigRead = (eventId: number): OfflineRead => ({ path: `configs/reviews/${eventId}/` });

/** The reads one allocated proposal's page makes. */
export function proposalReads(proposalId: number, reviewsSize: number): OfflineRead[] {
  return [
    { path: `proposals/${proposalId}/` },
    { path: `proposals/${proposalId}/submitted-review/`, notFoundIsAnswer: true },
    { path: 'proposal-reviews/filtered', query: { size: reviewsSize, page: 0, proposal_id: proposalId } },
  ];
}

/** Runs `run` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Reads everything the allocation needs through `read`, and says what had no usable answer. */
export async function walkAllocation(read: Reader, sizes: AllocationSizes): Promise<AllocationCopy> {
  const missing: OfflineRead[] = [];
  const limit = sizes.concurrency ?? 4;
  const get = async (item: OfflineRead): Promise<unknown> => {
    const result = await read(item);
    if (result && (result.status === 200 || (item.notFoundIsAnswer && result.status === 404))) return result.body;
    missing.push(item);
    return undefined;
  };
  const [, current, first] = await Promise.all([get(profileRead), get(currentEventsRead), get(allocatedPageRead(0, sizes.proposals))]);
  const total = first === undefined ? 0 : totalOf(first);
  const rows = rowsOf(first);
  const pages = Math.ceil(total / sizes.proposals);
  const later = Array.from({ length: Math.max(0, pages - 1) }, (_, index) => allocatedPageRead(index + 1, sizes.proposals));
  await eachLimited(later, limit, async (item) => rows.push(...rowsOf(await get(item))));

  const events = new Set<number>();
  for (const event of Array.isArray(current) ? (current as Row[]) : []) if (typeof event?.row_id === 'number') events.add(event.row_id);
  for (const row of rows) if (typeof row.event_id === 'number') events.add(row.event_id);
  const reads = [
    ...[...events].sort((a, b) => a - b).map(eventConfigRead),
    ...rows.flatMap((row) => proposalReads(row.row_id, sizes.reviews)),
  ];
  await eachLimited(reads, limit, get);
  return { total, missing };
}

/** A reader of the answers a service worker keeps in `cacheName`, by the URL the app asks (`urlOf`). */
export function cacheReader(cacheName: string, urlOf: (read: OfflineRead) => string): Reader {
  return async (read) => {
    if (typeof caches === 'undefined') return undefined;
    const response = await caches.match(urlOf(read), { cacheName });
    if (!response) return undefined;
    const body = response.status === 200 ? await response.json().catch(() => undefined) : undefined;
    return { status: response.status, body };
  };
}
