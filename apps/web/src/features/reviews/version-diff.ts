import { diffWords } from 'diff';
import type { ReviewVersionContent } from '@cr/contract/history';
import { CRITERIA, type Criterion } from './values';

/** A run of words on one side of a side-by-side diff: kept, or removed (left side) or added (right side). */
export interface DiffPart {
  text: string;
  kind: 'same' | 'removed' | 'added';
}

/**
 * A word-level diff of two texts (jsdiff's `diffWords`) laid out side by side: the left holds what stayed and what
 * was removed, the right what stayed and what was added.
 */
export function sideBySide(before: string, after: string): { before: DiffPart[]; after: DiffPart[] } {
  const left: DiffPart[] = [];
  const right: DiffPart[] = [];
  for (const change of diffWords(before, after)) {
    if (change.added) right.push({ text: change.value, kind: 'added' });
    else if (change.removed) left.push({ text: change.value, kind: 'removed' });
    else {
      left.push({ text: change.value, kind: 'same' });
      right.push({ text: change.value, kind: 'same' });
    }
  }
  return { before: left, after: right };
}

/** What changed in one criterion between two versions: its rating (before, after) and its note's diff, if either did. */
export interface CriterionChange {
  criterion: Criterion;
  rating: { before: number; after: number } | null;
  note: { before: DiffPart[]; after: DiffPart[] } | null;
}

/** The criteria that changed between two versions, in the review's order. */
export function changesBetween(before: ReviewVersionContent, after: ReviewVersionContent): CriterionChange[] {
  return CRITERIA.flatMap((criterion) => {
    const rating =
      before[criterion.rating] === after[criterion.rating] ? null : { before: before[criterion.rating], after: after[criterion.rating] };
    const note = before[criterion.note] === after[criterion.note] ? null : sideBySide(before[criterion.note], after[criterion.note]);
    return rating || note ? [{ criterion, rating, note }] : [];
  });
}
