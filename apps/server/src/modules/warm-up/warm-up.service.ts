import { proposalsQuery } from '@cr/contract/proposals';
import { reviewsCountQuery } from '@cr/contract/reviews';
import type { EventsService } from '../events/events.service';
import type { ProposalsService } from '../proposals/proposals.service';
import type { ReviewsService } from '../reviews/reviews.service';

/** How long a server spends at most counting before it listens; what is left is counted by the first requests. */
export const WARM_UP_BUDGET_MS = 10_000;

/** The review rankings a visitor can filter by (0: pending, 1–3: the outcomes). */
const RANKINGS = [0, 1, 2, 3];

/**
 * What a server counts before it listens (server.ts): the totals of the lists that visitors and reviewers open first
 * in the current rounds — the proposals and the reviews, unfiltered, by event, by objective and by ranking — as the
 * list requests of a signed-out visitor count them, so that the requests find them kept (count-cache). A server
 * started while a round is under way otherwise meets every filter for the first time at once: 160 users' first
 * seconds waited behind fifty counts of up to 250 ms each (issue 30 item 6). Counted one at a time, within
 * WARM_UP_BUDGET_MS; a failed count is left to the requests. Answers how many totals it counted.
 */
export function createWarmUpService(deps: {
  events: Pick<EventsService, 'current' | 'categories'>;
  proposals: Pick<ProposalsService, 'count'>;
  reviews: Pick<ReviewsService, 'count'>;
}) {
  return async function warmUp(
    budgetMs = WARM_UP_BUDGET_MS,
    now: () => number = Date.now,
  ): Promise<{ counted: number; complete: boolean }> {
    const deadline = now() + budgetMs;
    // What to count: a failure here (the database away a moment) leaves it all to the requests, never stops the start.
    const listed = await deps.events.current().then(
      async (events) => ({ events, categories: await Promise.all(events.map((event) => deps.events.categories(event.row_id))) }),
      () => undefined,
    );
    if (!listed) return { counted: 0, complete: false };
    const { events } = listed;
    if (events.length === 0) return { counted: 0, complete: true };
    // Each filter as a request's query string gives it: parsed by the routes' own schemas.
    const proposals = (query: Record<string, string>) => () => deps.proposals.count(proposalsQuery.parse(query));
    const reviews = (query: Record<string, string>) => () => deps.reviews.count(null, reviewsCountQuery.parse(query));
    const totals: (() => Promise<unknown>)[] = [proposals({}), reviews({})];
    for (const [index, event] of events.entries()) {
      const categories = listed.categories[index]!;
      totals.push(proposals({ event_id: String(event.row_id) }), reviews({ event_id: String(event.row_id) }));
      for (const category of categories) totals.push(proposals({ category: String(category.id) }));
      for (const category of categories) totals.push(reviews({ objective: String(category.id) }));
    }
    for (const ranking of RANKINGS) totals.push(reviews({ rankings: String(ranking) }));
    let counted = 0;
    for (const total of totals) {
      if (now() >= deadline) return { counted, complete: false };
      // A count that fails here (the database busy, say) is counted by the first request that needs it.
      if (
        await total().then(
          () => true,
          () => false,
        )
      )
        counted += 1;
    }
    return { counted, complete: true };
  };
}
export type WarmUp = ReturnType<typeof createWarmUpService>;
