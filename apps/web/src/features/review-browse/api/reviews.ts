import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { toRequestQuery, type ReviewFilters } from '../filters';

/** Page size of the reviews list (spec §9, E-035). */
export const REVIEWS_PAGE_SIZE = 25;

export const reviewBrowseKeys = {
  all: ['reviews'] as const,
  list: (filters: ReviewFilters, page: number, size: number) => ['reviews', 'list', { ...filters, page, size }] as const,
  detail: (id: number) => ['reviews', 'detail', id] as const,
};

/**
 * `GET proposal-reviews/filtered?size&page&filters` (spec §7, E-036): array filters repeat the key. A failure shows its
 * toast (the server's message, else 'Error fetching reviews') and answers an empty page with total 0 (spec §8, E-038).
 */
export const filteredReviewsQuery = (filters: ReviewFilters, page: number, size = REVIEWS_PAGE_SIZE) =>
  queryOptions({
    queryKey: reviewBrowseKeys.list(filters, page, size),
    queryFn: async (): Promise<Paged<ReviewPublic>> => {
      try {
        return await api<Paged<ReviewPublic>>('proposal-reviews/filtered', { query: { size, page, ...toRequestQuery(filters) } });
      } catch (error) {
        notifyError(error, 'reviewBrowse.fetchFailed');
        return { data: [], page: { total: 0, size, page } };
      }
    },
    placeholderData: (previous) => previous,
  });

/**
 * `GET proposal-reviews/{id}/` (spec §7, E-043). Errors reach the page, which only logs them and shows a quiet
 * message (spec §8, E-051): no toast here.
 */
export const reviewQuery = (id: number) =>
  queryOptions({
    queryKey: reviewBrowseKeys.detail(id),
    queryFn: () => api<ReviewPublic>(`proposal-reviews/${id}/`),
  });
