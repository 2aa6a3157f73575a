import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { ProposalPublic, ProposalRow } from '@cr/contract/proposals';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { queryRoots } from '../../../lib/query-keys';

/** Page size of the proposals lists (spec §9). */
export const PROPOSALS_PAGE_SIZE = 25;

export interface ProposalsFilters {
  page: number;
  size: number;
  /** Already trimmed; empty means no filter (spec §2.11). */
  title: string;
}

const root = queryRoots.proposals;

export const proposalsKeys = {
  all: root,
  list: (filters: ProposalsFilters) => [...root, 'list', filters] as const,
  allocated: (page: number, size: number) => [...root, 'allocated', page, size] as const,
  detail: (id: number) => [...root, 'detail', id] as const,
};

const emptyPage = (size: number, page: number): Paged<ProposalRow> => ({ data: [], page: { total: 0, size, page } });

/** A failed list shows its toast and answers an empty page with total 0 (spec §8). */
async function pageOrEmpty(
  request: Promise<Paged<ProposalRow>>,
  size: number,
  page: number,
  errorKey: string,
): Promise<Paged<ProposalRow>> {
  try {
    return await request;
  } catch (error) {
    notifyError(error, errorKey);
    return emptyPage(size, page);
  }
}

/** `GET proposals/?size&page[&title]` (spec §2.11, §7): the active rounds' proposals; an empty title is not sent. */
export const proposalsPageQuery = (filters: ProposalsFilters) =>
  queryOptions({
    queryKey: proposalsKeys.list(filters),
    queryFn: () => {
      const title = filters.title.trim();
      const query = { size: filters.size, page: filters.page, ...(title ? { title } : {}) };
      return pageOrEmpty(api<Paged<ProposalRow>>('proposals/', { query }), filters.size, filters.page, 'proposals.fetchFailed');
    },
    placeholderData: (previous) => previous,
  });

/** `GET proposals/allocated?size&page` (spec §7): the viewer's allocated proposals. */
export const allocatedProposalsQuery = (page: number, size = PROPOSALS_PAGE_SIZE) =>
  queryOptions({
    queryKey: proposalsKeys.allocated(page, size),
    queryFn: () =>
      pageOrEmpty(api<Paged<ProposalRow>>('proposals/allocated', { query: { size, page } }), size, page, 'proposals.fetchAllocatedFailed'),
    placeholderData: (previous) => previous,
  });

/** `GET proposals/{id}/` (spec §2.12, §7). Errors reach the page, which tells a missing proposal from a failure. */
export const proposalQuery = (id: number) =>
  queryOptions({
    queryKey: proposalsKeys.detail(id),
    queryFn: (): Promise<ProposalPublic> => api<ProposalPublic>(`proposals/${id}/`),
  });
