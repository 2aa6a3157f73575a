import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { toRequestQuery, type ReviewFilters } from '../filters';
import { REVIEWS_PAGE_SIZE, reviewsKeys } from './keys';

const emptyPage = (size: number, page: number): Paged<ReviewPublic> => ({ data: [], page: { total: 0, size, page } });

/** `GET proposal-reviews/filtered`: a failure shows its toast ('Error fetching reviews' unless the server sent one). */
async function pageOrEmpty(query: Record<string, unknown>, size: number, page: number): Promise<Paged<ReviewPublic>> {
  try {
    return await api<Paged<ReviewPublic>>('proposal-reviews/filtered', { query: { size, page, ...query } });
  } catch (error) {
    notifyError(error, 'reviews.fetchFailed');
    return emptyPage(size, page);
  }
}

/**
 * `GET proposal-reviews/filtered?size&page&filters` (spec §7, E-036): array filters repeat the key. A failure shows its
 * toast and answers an empty page with total 0 (spec §8, E-038).
 */
export const filteredReviewsQuery = (filters: ReviewFilters, page: number, size = REVIEWS_PAGE_SIZE) =>
  queryOptions({
    queryKey: reviewsKeys.list(filters, page, size),
    queryFn: () => pageOrEmpty(toRequestQuery(filters), size, page),
    placeholderData: (previous) => previous,
  });

/**
 * `GET proposal-reviews/filtered?proposal_id&size&page` (spec §2.12, §7): the reviews of a proposal the server lets
 * the viewer see. A failure toasts and answers an empty page with total 0 (spec §8).
 */
export const proposalReviewsQuery = (proposalId: number, page: number, size = REVIEWS_PAGE_SIZE) =>
  queryOptions({
    queryKey: reviewsKeys.ofProposal(proposalId, page, size),
    queryFn: () => pageOrEmpty({ proposal_id: proposalId }, size, page),
    placeholderData: (previous) => previous,
  });
