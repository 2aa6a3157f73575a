import { queryOptions } from '@tanstack/react-query';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { reviewsKeys } from './keys';

/**
 * `GET proposal-reviews/{id}/` (spec §7, E-043). Errors reach the page, which only logs them and shows a quiet
 * message (spec §8, E-051): no toast here.
 */
export const reviewQuery = (id: number) =>
  queryOptions({
    queryKey: reviewsKeys.detail(id),
    queryFn: () => api<ReviewPublic>(`proposal-reviews/${id}/`),
  });
