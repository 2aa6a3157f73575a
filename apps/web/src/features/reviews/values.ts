import { NOTE_MAX, NOTE_MIN, RATING_MAX, nonWhitespaceLength } from '@cr/contract/plain';
import type { ReviewFields, ReviewPublic } from '@cr/contract/reviews';

/** The three criteria of a review (spec §1, §3 "Review"): each a rating and a justification note. */
export const CRITERIA = [
  { key: 'impact_alignment', rating: 'impact_alignment_rating_given', note: 'impact_alignment_note' },
  { key: 'feasibility', rating: 'feasibility_rating_given', note: 'feasibility_note' },
  { key: 'auditability', rating: 'auditability_rating_given', note: 'auditability_note' },
] as const;
export type Criterion = (typeof CRITERIA)[number];

/** A new review: every rating starts at 0, which is not yet a rating (spec §5, E-018), and every note is empty. */
export const emptyReview = (): ReviewFields => ({
  impact_alignment_rating_given: 0,
  impact_alignment_note: '',
  feasibility_rating_given: 0,
  feasibility_note: '',
  auditability_rating_given: 0,
  auditability_note: '',
});

/** The editable fields of a saved review. */
export function fieldsOf(review: ReviewPublic): ReviewFields {
  const fields = emptyReview();
  for (const { rating, note } of CRITERIA) {
    fields[rating] = review[rating];
    fields[note] = review[note];
  }
  return fields;
}

/** What the note counter shows: the length without white space and the allowed range (spec §5). */
export const noteCount = (text: string) => ({ count: nonWhitespaceLength(text), min: NOTE_MIN, max: NOTE_MAX });

// ---- drafts kept in the browser while typing ------------------------------------------------------------------

const DRAFT_PREFIX = 'review-draft';

/** One draft per user and proposal, so that two accounts in one browser never see each other's text. */
export const draftKey = (userId: string, proposalId: number) => `${DRAFT_PREFIX}:${userId}:${proposalId}`;

/** Only the review's own fields, of the right types, are taken from storage; anything else is left empty. */
export function loadDraft(storage: Storage, key: string): ReviewFields | null {
  try {
    const text = storage.getItem(key);
    if (!text) return null;
    const value = JSON.parse(text) as Record<string, unknown>;
    if (!value || typeof value !== 'object') return null;
    const draft = emptyReview();
    for (const { rating, note } of CRITERIA) {
      const stars = value[rating];
      const words = value[note];
      if (typeof stars === 'number' && Number.isInteger(stars) && stars >= 0 && stars <= RATING_MAX) draft[rating] = stars;
      if (typeof words === 'string') draft[note] = words;
    }
    return draft;
  } catch {
    return null;
  }
}

export function saveDraft(storage: Storage, key: string, values: ReviewFields) {
  try {
    storage.setItem(key, JSON.stringify(values));
  } catch {
    // A full or blocked storage only costs the draft; the form keeps working.
  }
}

export function clearDraft(storage: Storage, key: string) {
  try {
    storage.removeItem(key);
  } catch {
    // As above.
  }
}
