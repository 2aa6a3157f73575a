import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AppealDecisionFields, AppealPublic, AppealState, NewAppeal } from '@cr/contract/appeals';
import type { PageInfo } from '@cr/contract/common';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { queryRoots } from '../../../lib/query-keys';

/** Page size of the appeal lists (DOMAIN.md decision 12). */
export const APPEALS_PAGE_SIZE = 25;

const root = queryRoots.appeals;

/** The appeals feature's key factory: every appeal key starts with the `appeals` root. */
export const appealsKeys = {
  all: root,
  byReview: (reviewId: number) => [...root, 'by-review', reviewId] as const,
  detail: (id: number) => [...root, 'detail', id] as const,
  mine: (page: number) => [...root, 'mine', page] as const,
  allocated: (page: number) => [...root, 'allocated', page] as const,
};

type Page<T> = { data: T[]; page: PageInfo };

/** `GET appeals/by-review/{id}/`: the window and the appeal of the caller's own review. */
export const appealStateQuery = (reviewId: number) =>
  queryOptions({
    queryKey: appealsKeys.byReview(reviewId),
    queryFn: () => api<AppealState>(`appeals/by-review/${reviewId}/`),
  });

/** `GET appeals/{id}/`: an appeal the caller wrote, decides, or (admins) any. */
export const appealQuery = (id: number) =>
  queryOptions({ queryKey: appealsKeys.detail(id), queryFn: () => api<AppealPublic>(`appeals/${id}/`) });

const pageQuery = (key: readonly unknown[], path: string, page: number, query: Record<string, number> = {}) =>
  queryOptions({
    queryKey: key,
    queryFn: () => api<Page<AppealPublic>>(path, { query: { ...query, page, size: APPEALS_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export const myAppealsQuery = (page: number) => pageQuery(appealsKeys.mine(page), 'appeals/mine/', page);
export const allocatedAppealsQuery = (page: number) => pageQuery(appealsKeys.allocated(page), 'appeals/allocated/', page);

/** `POST appeals/`: the author appeals their excluded review. */
export function useMakeAppeal() {
  return useInvalidatingMutation('makeAppeal', {
    mutationFn: (values: NewAppeal) => api<AppealPublic>('appeals/', { method: 'POST', body: { new_appeal: values } }),
  });
}

/** `PUT appeals/{id}/decision/`: an allocated moderator's decision, new or changed. */
export function useDecideAppeal(id: number) {
  return useInvalidatingMutation('decideAppeal', {
    mutationFn: (values: AppealDecisionFields) =>
      api<AppealPublic>(`appeals/${id}/decision/`, { method: 'PUT', body: { appeal_decision: values } }),
  });
}
