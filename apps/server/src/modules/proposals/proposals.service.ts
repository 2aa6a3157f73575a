import { pagedJson } from '../../lib/json-text';
import type { ProposalsQuery } from '@cr/contract/proposals';
import type { Db } from '../../db/client';
import type { LookupsService } from '../lookups/lookups.service';
import { notFound } from '../../errors';
import { createCountCache } from '../../lib/count-cache';
import * as repo from './proposals.repository';

export const proposalMessages = { notFound: 'The proposal you are looking for does not exist.' };

/** Browsing proposals (spec §2.11, §2.12): public lists and detail, and the viewer's allocation. */
export function createProposalsService(deps: {
  db: Db;
  /** The viewer's reviewer subscriptions (`allocated`). */
  lookups: Pick<LookupsService, 'activeReviewerSubscriptionIds'>;
}) {
  const { db, lookups } = deps;
  const totals = createCountCache(undefined, undefined, undefined, 'proposal_totals');
  const filterOf = async (query: Omit<ProposalsQuery, 'size' | 'page'>): Promise<repo.ProposalFilter> => ({
    eventIds: query.event_id ? [query.event_id] : await repo.cachedActiveEventIds(db),
    title: query.title?.toLowerCase(),
    category: query.category,
  });
  const totalOf = (filter: repo.ProposalFilter) => totals.get(JSON.stringify(filter), () => repo.countProposals(db, filter));
  return {
    /**
     * A page of proposals, as the response's JSON text (contract `paged(proposalRow)`); without an event, those of the
     * current (active) events. One statement: PostgreSQL writes the rows' JSON (repository), the total is kept.
     */
    async listJson(query: ProposalsQuery & { size: number; page: number }, viewerId?: number): Promise<string> {
      const filter = await filterOf(query);
      const [data, total] = await Promise.all([repo.listProposalsJson(db, filter, query, viewerId), totalOf(filter)]);
      return pagedJson(data, total, query);
    },

    /** How many proposals the list's filter matches (`proposals/count/`). */
    count: async (query: Omit<ProposalsQuery, 'size' | 'page'>) => totalOf(await filterOf(query)),

    /** Forgets the cached totals (after an import changed the proposals). */
    proposalsChanged: () => totals.clear(),

    /** One proposal for the viewer (spec §2.12), as the answer's JSON text (contract `proposalPublic`). */
    async getJson(id: number, viewerId?: number): Promise<string> {
      const found = await repo.findProposalJson(db, id, viewerId);
      if (found === undefined) throw notFound(proposalMessages.notFound);
      return found;
    },

    /**
     * The proposals allocated to the viewer's reviewer subscriptions (spec §7 `proposals/allocated`), as the response's
     * JSON text, like `listJson`: their page and total in one statement.
     */
    async allocatedJson(userId: number, page: { size: number; page: number }): Promise<string> {
      const subscriptionIds = await lookups.activeReviewerSubscriptionIds(userId);
      const { data, total } = await repo.listAllocatedJson(db, subscriptionIds, page, userId);
      return pagedJson(data, total, page);
    },

    /** How many proposals are allocated to the viewer (`proposals/allocated/count`). */
    async allocatedTotal(userId: number): Promise<number> {
      const subscriptionIds = await lookups.activeReviewerSubscriptionIds(userId);
      return (await repo.listAllocatedJson(db, subscriptionIds, { size: 0, page: 0 }, userId)).total;
    },
  };
}
export type ProposalsService = ReturnType<typeof createProposalsService>;
