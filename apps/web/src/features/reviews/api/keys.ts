import type { ReviewFilters } from '../filters';
import { queryRoots } from '../../../lib/query-keys';

/** Page size of every reviews list: the community list and a proposal's reviews (spec §9, E-035; DOMAIN.md 12). */
export const REVIEWS_PAGE_SIZE = 25;

const root = queryRoots.reviews;

/** The one key factory of the reviews feature; every key starts with the `reviews` root. */
export const reviewsKeys = {
  all: root,
  /** The community list with its filters (spec §2.13). */
  list: (filters: ReviewFilters, page: number, size: number) => [...root, 'list', { ...filters, page, size }] as const,
  /** The reviews of one proposal (spec §2.12). */
  ofProposal: (proposalId: number, page: number, size: number) => [...root, 'proposal', proposalId, page, size] as const,
  /** A single review (spec §2.15). */
  detail: (id: number) => [...root, 'detail', id] as const,
  /** A review's versions (issue 28 item 3): below the review, so a save or delete makes them stale with it. */
  versions: (id: number) => [...root, 'detail', id, 'versions'] as const,
  /** The viewer's own review of a proposal, which a save or delete sets directly. */
  own: (proposalId: number) => [...root, 'own', proposalId] as const,
};

/** The viewer's own review of a proposal: a save or a delete sets it from the answer instead of fetching it again. */
export const isOwnReviewKey = (queryKey: readonly unknown[]) => queryKey[0] === root[0] && queryKey[1] === 'own';
