/**
 * The reviews-list filters of spec §2.13 and how they live in the query string (E-027). A missing key means "the
 * default for this stage and user"; a key with an empty value (`rankings=`) means "explicitly none", so that a
 * person who empties a filter with a default keeps it empty on reload.
 */

export interface ReviewFilters {
  /** Digits only, as typed; empty is no filter. */
  proposalId: string;
  includePending: boolean;
  /** Part of the proposal's title, trimmed; empty is no filter. */
  proposal: string;
  /** Category id as a string; empty is no filter. */
  objective: string;
  myReviews: boolean;
  assessors: string[];
  rankings: number[];
}

/** What the stage and the user make the defaults (E-030..E-034). */
export interface FilterDefaults {
  myReviews: boolean;
  assessors: string[];
  rankings: number[];
  /** In the review-open stage a reviewer's my_reviews is on and cannot be switched off (E-031). */
  myReviewsLocked: boolean;
  /** Only a user who can review a current event may use my_reviews (E-032). */
  myReviewsAllowed: boolean;
}

export const PARAMS = {
  proposalId: 'proposal_id',
  includePending: 'include_pending',
  proposal: 'proposal',
  objective: 'objective',
  myReviews: 'my_reviews',
  assessors: 'assessors',
  rankings: 'rankings',
} as const;

export const RANKING_VALUES = [
  ReviewRanking.pending,
  ReviewRanking.included,
  ReviewRanking.excluded_moderation,
  ReviewRanking.excluded_threshold,
] as const;

const isRanking = (value: number) => (RANKING_VALUES as readonly number[]).includes(value);

/** The stage-dependent defaults: a pure function of what the route knows about events and the user. */
export function filterDefaults(input: {
  stage: string;
  submissionOrModerationOpen: boolean;
  canReviewCurrent: boolean;
  anonymousIds: string[];
}): FilterDefaults {
  const locked = input.stage === 'review_open' && input.canReviewCurrent;
  return {
    myReviews: locked,
    assessors: locked ? input.anonymousIds : [],
    rankings: [input.submissionOrModerationOpen ? ReviewRanking.pending : ReviewRanking.included],
    myReviewsLocked: locked,
    myReviewsAllowed: input.canReviewCurrent,
  };
}

const listOf = (params: URLSearchParams, key: string) => params.getAll(key).filter((value) => value !== '');

/** The filters the query string names, the defaults filling what it leaves out. */
export function readFilters(params: URLSearchParams, defaults: FilterDefaults): ReviewFilters {
  const flag = (key: string, fallback: boolean) => (params.has(key) ? params.get(key) === 'true' : fallback);
  const proposalId = params.get(PARAMS.proposalId) ?? '';
  const objective = params.get(PARAMS.objective) ?? '';
  const myReviews = defaults.myReviewsLocked || (defaults.myReviewsAllowed && flag(PARAMS.myReviews, defaults.myReviews));
  return {
    proposalId: /^\d+$/.test(proposalId) ? proposalId : '',
    includePending: flag(PARAMS.includePending, false),
    proposal: (params.get(PARAMS.proposal) ?? '').trim(),
    objective: /^\d+$/.test(objective) ? objective : '',
    myReviews,
    assessors: params.has(PARAMS.assessors)
      ? [
          ...new Set(
            listOf(params, PARAMS.assessors)
              .map((value) => value.trim())
              .filter(Boolean),
          ),
        ]
      : defaults.assessors,
    rankings: params.has(PARAMS.rankings) ? [...new Set(listOf(params, PARAMS.rankings).map(Number).filter(isRanking))] : defaults.rankings,
  };
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/**
 * Writes one changed filter into a copy of the query string: a value equal to its default is dropped, an emptied list
 * that has a non-empty default is kept as an empty key. Any filter change starts again at the first page.
 */
export function writeFilter<K extends keyof ReviewFilters>(
  current: URLSearchParams,
  key: K,
  value: ReviewFilters[K],
  defaults: FilterDefaults,
): URLSearchParams {
  const next = new URLSearchParams(current);
  const name = PARAMS[key];
  next.delete(name);
  next.delete('page');
  if (Array.isArray(value)) {
    const fallback = (key === 'assessors' ? defaults.assessors : defaults.rankings) as readonly unknown[];
    if (!sameList(value as readonly unknown[], fallback)) {
      if (value.length === 0) next.set(name, '');
      else for (const item of value) next.append(name, String(item));
    }
  } else if (typeof value === 'boolean') {
    const fallback = key === 'myReviews' ? defaults.myReviews : false;
    if (value !== fallback) next.set(name, String(value));
  } else if (typeof value === 'string' && value.trim() !== '') {
    next.set(name, value.trim());
  }
  return next;
}

/** The query string without any filter (E-028): the defaults apply again. Keys the filters don't own stay. */
export function clearFilters(current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const name of Object.values(PARAMS)) next.delete(name);
  next.delete('page');
  return next;
}

/** Whether the query string holds any filter, i.e. whether the clear button has something to do. */
export const hasFilters = (params: URLSearchParams) => Object.values(PARAMS).some((name) => params.has(name));

/** The request's query (spec §7): empty values dropped, array filters as arrays (the client repeats the key, E-036). */
export function toRequestQuery(filters: ReviewFilters) {
  return {
    ...(filters.proposalId ? { proposal_id: Number(filters.proposalId) } : {}),
    ...(filters.includePending ? { include_pending: true } : {}),
    ...(filters.proposal ? { proposal: filters.proposal } : {}),
    ...(filters.objective ? { objective: Number(filters.objective) } : {}),
    ...(filters.myReviews ? { my_reviews: true } : {}),
    ...(filters.assessors.length > 0 ? { assessors: filters.assessors } : {}),
    ...(filters.rankings.length > 0 ? { rankings: filters.rankings } : {}),
  };
}
import { ReviewRanking } from '@cr/contract/plain';
