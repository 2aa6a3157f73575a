import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { MODERATION_PAGE_SIZE, moderationKeys } from './keys';

type ListPath = 'proposal-reviews/allocated/' | 'proposal-reviews/moderated/';

/** A failure shows the server's message in a toast and answers an empty page with total 0 (spec §8, F-011). */
async function pageOrEmpty(path: ListPath, size: number, page: number): Promise<Paged<ReviewPublic>> {
  try {
    return await api<Paged<ReviewPublic>>(path, { query: { size, page } });
  } catch (error) {
    notifyError(error, 'moderation.fetchFailed');
    return { data: [], page: { total: 0, size, page } };
  }
}

/** `GET proposal-reviews/allocated/?size&page` (spec §7, F-008); with size 1 it answers the allocated total (F-009). */
export const allocatedReviewsQuery = (page: number, size = MODERATION_PAGE_SIZE) =>
  queryOptions({
    queryKey: moderationKeys.allocated(page, size),
    queryFn: () => pageOrEmpty('proposal-reviews/allocated/', size, page),
    placeholderData: (previous) => previous,
  });

/** `GET proposal-reviews/moderated/?size&page` (spec §7, F-010). */
export const moderatedReviewsQuery = (page: number, size = MODERATION_PAGE_SIZE) =>
  queryOptions({
    queryKey: moderationKeys.moderated(page, size),
    queryFn: () => pageOrEmpty('proposal-reviews/moderated/', size, page),
    placeholderData: (previous) => previous,
  });
