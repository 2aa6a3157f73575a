import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { ReviewFields, ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { notifyError } from '../../../lib/notify';

/** Page size of review lists (spec §9). */
export const REVIEWS_PAGE_SIZE = 25;

/** Every review query but the viewer's own reviews, which a save or delete sets directly. */
const isReviewList = (queryKey: readonly unknown[]) => queryKey[0] === 'reviews' && queryKey[1] !== 'own';

export const reviewsKeys = {
  all: ['reviews'] as const,
  own: (proposalId: number) => ['reviews', 'own', proposalId] as const,
  ofProposalPage: (proposalId: number, page: number, size: number) => ['reviews', 'proposal', proposalId, page, size] as const,
};

/**
 * `GET proposals/{id}/submitted-review/` (spec §7, E-008): the viewer's own review of a proposal, or null when there
 * is none (a 404 is silent, E-009). Other failures reach the form, which says it could not load the review.
 */
export const ownReviewQuery = (proposalId: number) =>
  queryOptions({
    queryKey: reviewsKeys.own(proposalId),
    queryFn: async (): Promise<ReviewPublic | null> => {
      try {
        return await api<ReviewPublic>(`proposals/${proposalId}/submitted-review/`);
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });

/**
 * `GET proposal-reviews/filtered?proposal_id&size&page` (spec §2.12, §7): the reviews of a proposal the server lets
 * the viewer see. A failure toasts and answers an empty page with total 0 (spec §8).
 */
export const proposalReviewsQuery = (proposalId: number, page: number, size = REVIEWS_PAGE_SIZE) =>
  queryOptions({
    queryKey: reviewsKeys.ofProposalPage(proposalId, page, size),
    queryFn: async (): Promise<Paged<ReviewPublic>> => {
      try {
        return await api<Paged<ReviewPublic>>('proposal-reviews/filtered', { query: { proposal_id: proposalId, size, page } });
      } catch (error) {
        notifyError(error, 'reviews.fetchFailed');
        return { data: [], page: { total: 0, size, page } };
      }
    },
    placeholderData: (previous) => previous,
  });

export interface SaveReviewInput {
  /** The saved review's id: an update when set (E-010), else a new review (E-011). */
  rowId: number | null;
  values: ReviewFields;
}

/** Saves the viewer's review of a proposal: PUT with proposal_review_update when it exists, POST otherwise. */
export function useSaveReview(proposalId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rowId, values }: SaveReviewInput) =>
      rowId === null
        ? api<ReviewPublic>('proposal-reviews/', { method: 'POST', body: { new_proposal_review: { ...values, proposal_id: proposalId } } })
        : api<ReviewPublic>(`proposal-reviews/${rowId}/`, {
            method: 'PUT',
            body: { proposal_review_update: { ...values, row_id: rowId } },
          }),
    onSuccess: async (review) => {
      client.setQueryData(reviewsKeys.own(proposalId), review);
      await client.invalidateQueries({ predicate: (query) => isReviewList(query.queryKey) });
    },
  });
}

/** `DELETE proposal-reviews/{id}/` (E-014); the viewer then has no review of the proposal. */
export function useDeleteReview(proposalId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rowId: number) => api<{ row_id: number }>(`proposal-reviews/${rowId}/`, { method: 'DELETE' }),
    onSuccess: async () => {
      client.setQueryData(reviewsKeys.own(proposalId), null);
      await client.invalidateQueries({ predicate: (query) => isReviewList(query.queryKey) });
    },
  });
}
