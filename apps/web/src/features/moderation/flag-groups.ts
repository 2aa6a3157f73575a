import type { ReviewPublic } from '@cr/contract/reviews';

type Flag = ReviewPublic['flags'][number];

export interface FlagGroup {
  key: string;
  flagType: number;
  firstRelated: number | null;
  /** The mean of the group's scores (spec §2.15). */
  score: number;
  /** Each related review with the criterion of its note that matched, in the flags' order. */
  related: { reviewId: number; criterion: string | null }[];
}

/** Spec §2.15 (F-040): flags grouped by flag type plus the first related review; a group's score is the mean. */
export function flagGroups(flags: readonly Flag[]): FlagGroup[] {
  const groups = new Map<string, { flagType: number; firstRelated: number | null; scores: number[]; related: FlagGroup['related'] }>();
  for (const flag of flags) {
    const firstRelated = flag.related_reviews[0] ?? null;
    const key = `${flag.flag_type}:${firstRelated ?? '-'}`;
    const group = groups.get(key) ?? { flagType: flag.flag_type, firstRelated, scores: [], related: [] };
    group.scores.push(flag.score);
    flag.related_reviews.forEach((reviewId, index) => group.related.push({ reviewId, criterion: flag.related_criteria?.[index] ?? null }));
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, group]) => ({
    key,
    flagType: group.flagType,
    firstRelated: group.firstRelated,
    score: group.scores.reduce((sum, score) => sum + score, 0) / group.scores.length,
    related: group.related,
  }));
}

/** Scores show as percentages with two decimals (spec §2.15, F-041). */
export const formatPercent = (score: number) => `${(score * 100).toFixed(2)}%`;
