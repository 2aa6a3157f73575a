/** What a moderator has chosen and typed but not saved; kept in the browser like review drafts (issue 14 item 4). */
export interface ModerationDraft {
  classification: 0 | 1 | null;
  reason: string | null;
  custom: string;
}

export const emptyDraft: ModerationDraft = { classification: null, reason: null, custom: '' };

export const draftKey = (userId: string, reviewId: number) => `cr.moderation-draft.${userId}.${reviewId}`;

export function loadDraft(storage: Storage, key: string): ModerationDraft | null {
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<ModerationDraft>;
    const classification = value.classification === 0 || value.classification === 1 ? value.classification : null;
    return {
      classification,
      reason: typeof value.reason === 'string' ? value.reason : null,
      custom: typeof value.custom === 'string' ? value.custom : '',
    };
  } catch {
    return null;
  }
}

export function saveDraft(storage: Storage, key: string, draft: ModerationDraft) {
  try {
    storage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full or blocked storage only loses the draft.
  }
}

export function clearDraft(storage: Storage, key: string) {
  try {
    storage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}
