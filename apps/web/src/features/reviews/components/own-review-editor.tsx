import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDebouncedCallback } from '@mantine/hooks';
import { reviewFields, type ReviewFields, type ReviewPublic } from '@cr/contract/reviews';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveReview } from '../api/save-review';
import { CRITERIA, clearDraft, loadDraft, saveDraft } from '../values';
import { NoteField } from './note-field';
import { RatingField } from './rating-field';

/** How long typing pauses before the draft is written (spec §9 debounce). */
export const DRAFT_DEBOUNCE_MS = 300;

interface OwnReviewEditorProps {
  proposalId: number;
  /** The saved review's id: Save updates it; without one Save creates a review (E-010, E-011). */
  rowId: number | null;
  /** The saved review's fields, or an empty review; a draft from the browser takes their place. */
  savedValues: ReviewFields;
  draftStorageKey: string;
  onSaved: (review: ReviewPublic) => void;
  /** Back to view mode (E-012); only when a saved review exists. */
  onCancel?: (() => void) | undefined;
  onDelete?: (() => void) | undefined;
  isDeleting?: boolean;
}

/**
 * The own-review form in edit mode (spec §2.12, §5): three star ratings and three notes, checked with the contract's
 * rules; a message shows once its field was edited or a save was tried. What is typed is kept as a draft in the
 * browser until a save succeeds, so that a reload or a failed save loses nothing.
 */
export function OwnReviewEditor({
  proposalId,
  rowId,
  savedValues,
  draftStorageKey,
  onSaved,
  onCancel,
  onDelete,
  isDeleting = false,
}: OwnReviewEditorProps) {
  const { t } = useTranslation();
  const save = useSaveReview(proposalId);
  // Read once, when the form opens: later writes are this form's own.
  const [draft] = useState(() => loadDraft(localStorage, draftStorageKey));
  const form = useForm<ReviewFields>({ resolver: zodResolver(reviewFields), mode: 'onChange', defaultValues: draft ?? savedValues });
  const writeDraft = useDebouncedCallback((values: ReviewFields) => saveDraft(localStorage, draftStorageKey, values), DRAFT_DEBOUNCE_MS);

  useEffect(() => {
    const subscription = form.watch((values, { type }) => {
      if (type === 'change') writeDraft(values as ReviewFields);
    });
    // Leaving the page or the form inside the 300 ms still keeps the last keystrokes.
    const flush = () => writeDraft.flush();
    window.addEventListener('pagehide', flush);
    return () => {
      subscription.unsubscribe();
      window.removeEventListener('pagehide', flush);
      writeDraft.flush();
    };
  }, [form, writeDraft]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const review = await save.mutateAsync({ rowId, values });
      writeDraft.cancel();
      clearDraft(localStorage, draftStorageKey);
      notifySuccess('reviews.saved');
      onSaved(review);
    } catch (error) {
      notifyError(error, 'reviews.saveFailed');
    }
  });

  const [isDraftShown, setDraftShown] = useState(draft !== null);
  const discardDraft = () => {
    writeDraft.cancel();
    clearDraft(localStorage, draftStorageKey);
    form.reset(savedValues);
    setDraftShown(false);
  };

  // Cancel and delete drop the draft; a pending write must not bring it back.
  const withoutDraft = (action: () => void) => () => {
    writeDraft.cancel();
    action();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('reviews.editLabel')}>
      <Stack gap="md">
        {isDraftShown && (
          <Alert color="brand" variant="light" p="xs">
            <Group justify="space-between" gap="xs">
              <Text size="sm">{t('reviews.draftRestored')}</Text>
              <Button size="compact-sm" variant="subtle" onClick={discardDraft}>
                {t('reviews.discardDraft')}
              </Button>
            </Group>
          </Alert>
        )}
        {CRITERIA.map((criterion) => (
          <Stack key={criterion.key} gap="xs">
            <Controller
              control={form.control}
              name={criterion.rating}
              render={({ field }) => (
                <RatingField
                  label={t('reviews.ratingLabel', { criterion: t(`reviews.criteria.${criterion.key}`) })}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldError(form, criterion.rating, t(`reviews.criteria.${criterion.key}`))}
                />
              )}
            />
            <Controller
              control={form.control}
              name={criterion.note}
              render={({ field }) => (
                <NoteField
                  label={t('reviews.noteLabel', { criterion: t(`reviews.criteria.${criterion.key}`) })}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldError(form, criterion.note, t('reviews.noteLabel', { criterion: t(`reviews.criteria.${criterion.key}`) }))}
                />
              )}
            />
          </Stack>
        ))}
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Button type="submit" loading={save.isPending} disabled={isDeleting}>
              {t('reviews.save')}
            </Button>
            {onCancel && (
              <Button variant="default" onClick={withoutDraft(onCancel)} disabled={save.isPending}>
                {t('reviews.cancel')}
              </Button>
            )}
          </Group>
          {onDelete && (
            <Button variant="subtle" color="red" onClick={withoutDraft(onDelete)} loading={isDeleting} disabled={save.isPending}>
              {t('reviews.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
