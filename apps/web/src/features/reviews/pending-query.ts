/**
 * The query strings the reviews filters asked the router for that the page has not shown yet. A navigation lands a
 * moment after it is asked for (the route's loaders, a transition render), so a second filter change made in between
 * — a rankings click while a typed id's navigation is on its way, or two typed filters settling in one render — must
 * start from the query string last asked for, not from the older one on screen, or the first change is lost
 * (issue 26 item 15). Pure, so that every interleaving can be tested without a browser.
 */
export interface PendingQueries {
  /** The query string on screen when the oldest of them was asked for. */
  from: string;
  /** Oldest first; never empty. */
  asked: string[];
}

/**
 * What is still on its way now that the page shows `shown`: nothing once the last one asked for is shown, the newer
 * ones once an older one is, and nothing either when the page moved somewhere it was not asked to (going back, a
 * link): that navigation is what the person wants now.
 */
export function settlePending(pending: PendingQueries | null, shown: string): PendingQueries | null {
  if (!pending) return null;
  const landed = pending.asked.lastIndexOf(shown);
  if (landed === pending.asked.length - 1) return null;
  if (landed >= 0) return { from: shown, asked: pending.asked.slice(landed + 1) };
  return shown === pending.from ? pending : null;
}

/**
 * One more change: applied to the newest query string asked for (or to the one shown when nothing is on its way).
 * Answers the query string to navigate to and what is then on its way.
 */
export function askChange(
  pending: PendingQueries | null,
  shown: string,
  change: (base: URLSearchParams) => URLSearchParams,
): { next: URLSearchParams; pending: PendingQueries } {
  const settled = settlePending(pending, shown);
  const next = change(new URLSearchParams(settled?.asked.at(-1) ?? shown));
  return { next, pending: { from: settled?.from ?? shown, asked: [...(settled?.asked ?? []), next.toString()] } };
}
