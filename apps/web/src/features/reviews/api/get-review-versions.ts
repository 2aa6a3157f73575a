import { queryOptions } from '@tanstack/react-query';
import type { ReviewVersions } from '@cr/contract/history';
import { api } from '../../../lib/api-client';
import { reviewsKeys } from './keys';

/** `GET proposal-reviews/{id}/versions/` (issue 28 item 3): for admins and the review's author. */
export const reviewVersionsQuery = (id: number) =>
  queryOptions({
    queryKey: reviewsKeys.versions(id),
    queryFn: () => api<ReviewVersions>(`proposal-reviews/${id}/versions/`),
    retry: false,
  });
