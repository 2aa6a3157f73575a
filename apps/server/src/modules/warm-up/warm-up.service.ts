import { proposalsQuery } from '@cr/contract/proposals';
import { reviewsCountQuery, reviewsFilterQuery } from '@cr/contract/reviews';
import { POOL_SIZE, type Db } from '../../db/client';
import type { EventsService } from '../events/events.service';
import type { ProposalsService } from '../proposals/proposals.service';
import type { ReviewsService } from '../reviews/reviews.service';
import { prewarmUsedRelations, type PrewarmResult } from './prewarm';
import { signedInReads, type SignedInDeps } from './signed-in';

/** How long a server spends at most counting before it listens; what is left is counted by the first requests. */
export const WARM_UP_BUDGET_MS = 10_000;

/** The review rankings a visitor can filter by (0: pending, 1–3: the outcomes). */
const RANKINGS = [0, 1, 2, 3];

/**
 * How many of each hot read run at once in the warm-up: the pool's size, so that every connection parses and plans
 * each named statement once before the first users do (issue 45 item 14).
 */
export const WARM_READS_AT_ONCE = POOL_SIZE;

/**
 * What a server counts before it listens (server.ts): the totals of the lists that visitors and reviewers open first
 * in the current rounds — the proposals and the reviews, unfiltered, by event, by objective and by ranking — as the
 * list requests of a signed-out visitor count them, so that the requests find them kept (count-cache). A server
 * started while a round is under way otherwise meets every filter for the first time at once: 160 users' first
 * seconds waited behind fifty counts of up to 250 ms each (issue 30 item 6). Counted one at a time, within
 * WARM_UP_BUDGET_MS; a failed count is left to the requests. Answers how many totals it counted.
 */
export function createWarmUpService(deps: {
  /** With `prewarmBytes`: the database whose most used relations are read first (prewarm.ts); absent, none are. */
  db?: Db;
  prewarmBytes?: number;
  events: Pick<EventsService, 'current' | 'categories'>;
  proposals: Pick<ProposalsService, 'count' | 'listJson' | 'getJson'>;
  reviews: Pick<ReviewsService, 'count' | 'filteredJson' | 'getJson'>;
  /** The signed-in reads (signed-in.ts); absent, only a visitor's are warmed. */
  signedIn?: SignedInDeps;
}) {
  /**
   * The hot reads of a signed-out visitor — a page of proposals, a proposal, a page of reviews, a review — each
   * WARM_READS_AT_ONCE times at once: every pooled connection then holds their named statements parsed and planned,
   * and the server's own code for them is compiled, before the first users come (a cold start's first 10 s were 4–5×
   * slower than the rest). Answers how many reads ran; a failed read is left to the requests.
   */
  async function warmReads(eventId: number, deadline: number, now: () => number) {
    if (now() >= deadline) return 0;
    const firstId = (json: string) => /"row_id":(\d+)/.exec(json)?.[1];
    const proposalPage = () => deps.proposals.listJson(proposalsQuery.parse({ event_id: String(eventId) }));
    const reviewPage = () => deps.reviews.filteredJson(null, reviewsFilterQuery.parse({ event_id: String(eventId) }));
    const [proposal, review] = await Promise.all([
      proposalPage().then(firstId, () => undefined),
      reviewPage().then(firstId, () => undefined),
    ]);
    const reads: (() => Promise<unknown>)[] = [proposalPage, reviewPage];
    if (proposal) reads.push(() => deps.proposals.getJson(Number(proposal)));
    if (review) reads.push(() => deps.reviews.getJson(null, Number(review)));
    return runAtOnce(reads, deadline, now);
  }

  /** Each read WARM_READS_AT_ONCE times at once, one read after another, until the deadline; answers how many ran. */
  async function runAtOnce(reads: (() => Promise<unknown>)[], deadline: number, now: () => number) {
    let ran = 0;
    for (const read of reads) {
      if (now() >= deadline) break;
      const settled = await Promise.allSettled(Array.from({ length: WARM_READS_AT_ONCE }, read));
      ran += settled.filter((result) => result.status === 'fulfilled').length;
    }
    return ran;
  }

  return async function warmUp(
    budgetMs = WARM_UP_BUDGET_MS,
    now: () => number = Date.now,
  ): Promise<{ counted: number; reads: number; signedIn?: number; complete: boolean; prewarm?: PrewarmResult }> {
    const started = now();
    const deadline = started + budgetMs;
    // First the disk (issue 45 item 14): the most used relations into the page cache, in at most half the budget, so
    // that the reads and counts below, and the first users, find them in memory on a cold machine.
    const prewarm =
      deps.db && deps.prewarmBytes
        ? await prewarmUsedRelations(deps.db, { budgetBytes: deps.prewarmBytes, deadline: started + budgetMs / 2, now })
        : undefined;
    const withPrewarm = <T extends object>(result: T) => (prewarm ? { ...result, prewarm } : result);
    // What to count: a failure here (the database away a moment) leaves it all to the requests, never stops the start.
    const listed = await deps.events.current().then(
      async (events) => ({ events, categories: await Promise.all(events.map((event) => deps.events.categories(event.row_id))) }),
      () => undefined,
    );
    if (!listed) return withPrewarm({ counted: 0, reads: 0, complete: false });
    const { events } = listed;
    if (events.length === 0) return withPrewarm({ counted: 0, reads: 0, complete: true });
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
    // The reads first: short, and they prepare what every request runs; the totals after them.
    let reads = 0;
    for (const event of events) reads += await warmReads(event.row_id, deadline, now);
    // Then a signed-in reviewer's and moderator's (issue 45 item 14): every user of a round under way is signed in,
    // and their requests run statements of their own (the session check, their lists, the reads as a viewer).
    let signedIn = 0;
    if (deps.signedIn && now() < deadline) {
      const reads = await signedInReads(
        deps.signedIn,
        events.map((event) => event.row_id),
      ).catch(() => []);
      signedIn = await runAtOnce(reads, deadline, now);
    }
    const withSignedIn = deps.signedIn ? { signedIn } : {};
    let counted = 0;
    for (const total of totals) {
      if (now() >= deadline) return withPrewarm({ counted, reads, ...withSignedIn, complete: false });
      // A count that fails here (the database busy, say) is counted by the first request that needs it.
      if (
        await total().then(
          () => true,
          () => false,
        )
      )
        counted += 1;
    }
    return withPrewarm({ counted, reads, ...withSignedIn, complete: true });
  };
}
export type WarmUp = ReturnType<typeof createWarmUpService>;
