import { queryOptions } from '@tanstack/react-query';
import type { ModerationVersionsOfReview } from '@cr/contract/history';
import type { ModerationFields, ModerationPublic } from '@cr/contract/moderations';
import type { ReviewPublic } from '@cr/contract/reviews';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { moderationKeys } from './keys';

/** `GET moderations/{id}/`: the caller's own moderation with its reason and custom text (the review carries less). */
export const moderationQuery = (id: number) =>
  queryOptions({
    queryKey: [...moderationKeys.all, 'detail', id] as const,
    queryFn: () => api<ModerationPublic>(`moderations/${id}/`),
  });

/**
 * `GET moderations/by-review/{review_id}/` (spec §7, F-035): a failure toasts (F-036) and answers no moderations.
 */
export const reviewModerationsQuery = (reviewId: number) =>
  queryOptions({
    queryKey: moderationKeys.byReview(reviewId),
    queryFn: async () => {
      try {
        return await api<ModerationPublic[]>(`moderations/by-review/${reviewId}/`);
      } catch (error) {
        notifyError(error, 'moderation.fetchModerationsFailed');
        return [];
      }
    },
  });

/** `GET moderations/by-review/{review_id}/versions/` (issue 28 item 3): the versions of the review's moderations. */
export const moderationVersionsQuery = (reviewId: number) =>
  queryOptions({
    queryKey: moderationKeys.versions(reviewId),
    queryFn: () => api<ModerationVersionsOfReview>(`moderations/by-review/${reviewId}/versions/`),
    retry: false,
  });

/** The ids of a flag's related reviews, 20 a request with `ids` repeated (spec §2.15): `GET proposal-reviews/by-ids/`. */
export const RELATED_BATCH = 20;
/** `ids` cut into requests of at most `size` (F-045). */
export function inBatches(ids: readonly number[], size = RELATED_BATCH): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += size) batches.push(ids.slice(start, start + size));
  return batches;
}
export const relatedReviewsQuery = (ids: readonly number[]) =>
  queryOptions({
    queryKey: moderationKeys.related(ids),
    queryFn: async () => {
      const pages = await Promise.all(
        inBatches(ids).map((batch) => api<ReviewPublic[]>('proposal-reviews/by-ids/', { query: { ids: batch } })),
      );
      return pages.flat();
    },
    enabled: ids.length > 0,
  });

type ModerationChange = { kind: 'save'; rowId: number | null; values: ModerationFields } | { kind: 'delete'; rowId: number };

/**
 * Creates (`POST moderations/` with new_moderation, F-030), edits (`PUT moderations/{id}/` with record_update, F-031)
 * or deletes (`DELETE moderations/{id}/`, whose answer names the same row_id, F-032) the caller's moderation, with the
 * §8 toasts (F-033, F-034). The review, the moderator's lists and the round's figures are stale afterwards
 * (lib/invalidations).
 */
export function useChangeModeration({ onDone }: { onDone?: () => void } = {}) {
  return useInvalidatingMutation('changeModeration', {
    mutationFn: async (change: ModerationChange) => {
      if (change.kind === 'delete') {
        const answer = await api<{ row_id: number }>(`moderations/${change.rowId}/`, { method: 'DELETE' });
        if (answer.row_id !== change.rowId) throw new Error('The deleted moderation is not the one asked for');
        return null;
      }
      return change.rowId === null
        ? api<ModerationPublic>('moderations/', { method: 'POST', body: { new_moderation: change.values } })
        : api<ModerationPublic>(`moderations/${change.rowId}/`, { method: 'PUT', body: { record_update: change.values } });
    },
    onSuccess: () => {
      onDone?.();
      notifySuccess('moderation.saved');
    },
    // The §8 text whatever the server said (F-034).
    onError: () => notifyError(null, 'moderation.failed'),
  });
}
