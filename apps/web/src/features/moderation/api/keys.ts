import { queryRoots } from '../../../lib/query-keys';

/** Page size of the moderator's lists (spec §2.14, §9, F-007). */
export const MODERATION_PAGE_SIZE = 25;

const root = queryRoots.moderations;

/** The one key factory of the moderation feature; every key starts with the `moderations` root. */
export const moderationKeys = {
  all: root,
  /** `GET proposal-reviews/allocated/` (F-008; size 1 for the total, F-009). */
  allocated: (page: number, size: number) => [...root, 'allocated', page, size] as const,
  /** `GET proposal-reviews/moderated/` (F-010). */
  moderated: (page: number, size: number) => [...root, 'moderated', page, size] as const,
  /** `GET moderations/by-review/{review_id}/` (F-035). */
  byReview: (reviewId: number) => [...root, 'by-review', reviewId] as const,
  /** `GET moderations/by-review/{review_id}/versions/` (issue 28 item 3). */
  versions: (reviewId: number) => [...root, 'versions', reviewId] as const,
  /** `GET proposal-reviews/by-ids` for a flag's related reviews, 20 a request. */
  related: (ids: readonly number[]) => [...root, 'related', ...ids] as const,
};
