import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type {
  CoverageModerator,
  CoverageReview,
  CoverageReviewKind,
  CoverageSummary,
  TopUpParams,
  TopUpStats,
} from '@cr/contract/coverage';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { queryRoots } from '../../../lib/query-keys';

/** Moderation coverage (issue 28 item 1), under the moderations root: every moderation write makes it stale. */
export const coverageKeys = {
  all: [...queryRoots.moderations, 'coverage'] as const,
  summary: (eventId: number) => [...coverageKeys.all, eventId, 'summary'] as const,
  reviews: (eventId: number, kind: CoverageReviewKind, page: number) => [...coverageKeys.all, eventId, 'reviews', kind, page] as const,
  moderators: (eventId: number, page: number) => [...coverageKeys.all, eventId, 'moderators', page] as const,
};

export const COVERAGE_PAGE_SIZE = 25;

/** `GET moderations/coverage?event_id`: the round's coverage figures. */
export const coverageSummaryQuery = (eventId: number) =>
  queryOptions({
    queryKey: coverageKeys.summary(eventId),
    queryFn: () => api<CoverageSummary>('moderations/coverage', { query: { event_id: eventId } }),
    retry: false,
  });

/** `GET moderations/coverage/reviews`: the short or tied reviews, 25 a page. */
export const coverageReviewsQuery = (eventId: number, kind: CoverageReviewKind, page: number) =>
  queryOptions({
    queryKey: coverageKeys.reviews(eventId, kind, page),
    queryFn: () =>
      api<Paged<CoverageReview>>('moderations/coverage/reviews', { query: { event_id: eventId, kind, page, size: COVERAGE_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** `GET moderations/coverage/moderators`: moderators with unfinished allocations, 25 a page. */
export const coverageModeratorsQuery = (eventId: number, page: number) =>
  queryOptions({
    queryKey: coverageKeys.moderators(eventId, page),
    queryFn: () =>
      api<Paged<CoverageModerator>>('moderations/coverage/moderators', { query: { event_id: eventId, page, size: COVERAGE_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
    retry: false,
  });

/** `POST moderations/top-up`: dry by default; a real run adds allocations (lib/invalidations `topUpModeration`). */
export function topUpModeration(params: TopUpParams) {
  return api<TopUpStats>('moderations/top-up', { method: 'POST', body: { top_up_params: params } });
}

export function useTopUpModeration(_eventId?: number) {
  return useInvalidatingMutation('topUpModeration', {
    mutationFn: (params: TopUpParams) => topUpModeration(params),
    changedNothing: (stats) => stats.dry_run,
  });
}
