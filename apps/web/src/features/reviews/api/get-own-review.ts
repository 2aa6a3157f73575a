import { queryOptions } from '@tanstack/react-query';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { reviewsKeys } from './keys';

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
