import { describe, expect, it } from 'vitest';
import { reviewFields } from '@cr/contract/reviews';
import { clearDraft, draftKey, emptyReview, loadDraft, noteCount, saveDraft } from './values';

/** A Storage in memory, as localStorage behaves. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('a new review (spec §5)', () => {
  it('starts every rating at 0 and every note empty (E-018), which the rules refuse (E-017, E-019)', () => {
    const review = emptyReview();
    expect(review).toEqual({
      impact_alignment_rating_given: 0,
      impact_alignment_note: '',
      feasibility_rating_given: 0,
      feasibility_note: '',
      auditability_rating_given: 0,
      auditability_note: '',
    });
    const result = reviewFields.safeParse(review);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(
      expect.arrayContaining(['Rating must be between 1 and 5', 'validation.required']),
    );
  });
});

describe('noteCount', () => {
  it('counts a note without its white space, against 200 to 3000 (E-020, E-021)', () => {
    expect(noteCount('a b\tc\n d')).toEqual({ count: 4, min: 200, max: 3000 });
  });
});

describe('drafts in the browser', () => {
  it('are kept per user and proposal, read back and cleared', () => {
    const storage = memoryStorage();
    const values = { ...emptyReview(), feasibility_rating_given: 4, feasibility_note: 'half a note' };
    saveDraft(storage, draftKey('cardano/alice', 7), values);
    expect(loadDraft(storage, draftKey('cardano/alice', 7))).toEqual(values);
    expect(loadDraft(storage, draftKey('cardano/bob', 7))).toBeNull();
    expect(loadDraft(storage, draftKey('cardano/alice', 8))).toBeNull();
    clearDraft(storage, draftKey('cardano/alice', 7));
    expect(loadDraft(storage, draftKey('cardano/alice', 7))).toBeNull();
  });
  it('take only the review fields of the right types from what is stored', () => {
    const storage = memoryStorage();
    storage.setItem(
      'k',
      JSON.stringify({
        impact_alignment_rating_given: 9,
        feasibility_rating_given: 2.5,
        auditability_rating_given: 3,
        impact_alignment_note: 42,
        feasibility_note: 'ok',
        extra: 'x',
      }),
    );
    expect(loadDraft(storage, 'k')).toEqual({ ...emptyReview(), auditability_rating_given: 3, feasibility_note: 'ok' });
    storage.setItem('k', 'not json');
    expect(loadDraft(storage, 'k')).toBeNull();
    storage.setItem('k', 'null');
    expect(loadDraft(storage, 'k')).toBeNull();
  });
});
