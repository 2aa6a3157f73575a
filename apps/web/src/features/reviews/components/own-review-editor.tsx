import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { ReviewFields, ReviewPublic } from '@cr/contract/reviews';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { useKeepFieldInView } from '../../../components/use-keep-field-in-view';
import { translateError } from '../../../lib/i18n';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { useSaveReview } from '../api/save-review';
import { QueuedOffline, useOutbox } from '../offline-outbox';
import { CRITERIA, clearDraft, loadDraft, saveDraft, type Criterion } from '../values';
import { NoteField } from './note-field';
import { RatingField } from './rating-field';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

interface OwnReviewEditorProps {
  proposalId: number;
  proposalTitle?: string | undefined;
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
  proposalTitle,
  rowId,
  savedValues,
  draftStorageKey,
  onSaved,
  onCancel,
  onDelete,
  isDeleting = false,
}: OwnReviewEditorProps) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  useKeepFieldInView(formRef);
  // The draft goes before the cache learns of the save, so that no form rendered from the new cache reads it.
  const save = useSaveReview(proposalId, {
    onDone: () => clearDraft(localStorage, draftStorageKey),
    ...(proposalTitle ? { proposalTitle } : {}),
  });
  // Read once, when the form opens: later writes are this form's own.
  const [draft] = useState(() => loadDraft(localStorage, draftStorageKey));
  const form = useForm<ReviewFields>({
    resolver: lazyZodResolver(() => import('@cr/contract/reviews').then((module) => module.reviewFields)),
    mode: 'onChange',
    defaultValues: draft ?? savedValues,
  });

  // The draft is written with every change, in the change itself (issue 12 items 3, 4): it is local and cheap, a reload
  // or a closed tab keeps the last keystroke, and no write is ever pending to outlive a save, a cancel or a delete.
  useEffect(() => {
    const subscription = form.watch((values, { type }) => {
      if (type === 'change') saveDraft(localStorage, draftStorageKey, values as ReviewFields);
    });
    return () => subscription.unsubscribe();
  }, [form, draftStorageKey]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const review = await save.mutateAsync({ rowId, values });
      notifySuccess(rowId === null ? 'reviews.submitted' : 'reviews.updated', 'reviews.saved');
      onSaved(review);
    } catch (error) {
      // No connection: the write waits in the outbox and the draft stays here (issue 29).
      if (error instanceof QueuedOffline) notifyInfo('offline.queuedToast', 'offline.queuedTitle');
      else notifyError(error, 'reviews.saveFailed');
    }
  });
  const outbox = useOutbox((state) => state.entries);
  const queued = useMemo(() => outbox.filter((entry) => entry.proposalId === proposalId), [outbox, proposalId]);

  // A note's message waits until the note is left or a save is tried (issue 12 item 10): while the first words are
  // typed, only the live count shows.
  const noteError = (name: Criterion['note'], label: string) => {
    const state = form.getFieldState(name, form.formState);
    return state.isTouched || form.formState.isSubmitted ? translateError(state.error?.message, label) : undefined;
  };

  const [isDraftShown, setDraftShown] = useState(draft !== null);
  const discardDraft = () => {
    clearDraft(localStorage, draftStorageKey);
    form.reset(savedValues);
    setDraftShown(false);
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={t('reviews.editLabel')} className="phone-form">
      <Stack gap="md">
        {queued.map((entry) => (
          <Alert
            key={entry.id}
            color={entry.state === 'refused' ? 'red' : 'yellow'}
            title={t(entry.state === 'refused' ? 'offline.refusedTitle' : 'offline.waitingTitle')}
            role="status"
            data-testid="queued-write"
          >
            {entry.state === 'refused' ? t('offline.refusedHere', { message: entry.message }) : t('offline.waitingHere')}
          </Alert>
        ))}
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
                  error={noteError(criterion.note, t('reviews.noteLabel', { criterion: t(`reviews.criteria.${criterion.key}`) }))}
                />
              )}
            />
          </Stack>
        ))}
        {/* On phones and tablets the actions stay on screen while the notes are typed (issue 19 item 3). */}
        <Group justify="space-between" gap="xs" className="sticky-actions">
          <Group gap="xs">
            <Button type="submit" loading={save.isPending} disabled={isDeleting}>
              {t('reviews.save')}
            </Button>
            {onCancel && (
              <Button variant="default" onClick={onCancel} disabled={save.isPending}>
                {t('reviews.cancel')}
              </Button>
            )}
          </Group>
          {onDelete && (
            <Button variant="subtle" color="red" onClick={onDelete} loading={isDeleting} disabled={save.isPending}>
              {t('reviews.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
