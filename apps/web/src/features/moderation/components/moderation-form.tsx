import { CUSTOM_REASON_MAX, ModerationClassification, moderationMessages, reasonsFor } from '@cr/contract/plain';
import { Button, Group, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ModerationFields } from '@cr/contract/moderations';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeepFieldInView } from '../../../components/use-keep-field-in-view';
import { moderationQuery, useChangeModeration } from '../api/moderations';
import { clearDraft, draftKey, emptyDraft, loadDraft, saveDraft, type ModerationDraft } from '../draft';

const classificationName = (classification: 0 | 1) => (classification === ModerationClassification.excluded ? 'excluded' : 'included');

/** The custom reason's message (spec §5, F-024, F-025): blank, or exactly at 500 characters. */
export function customReasonError(custom: string): string | null {
  if (!custom.trim()) return moderationMessages.customReasonRequired;
  if (custom.length >= CUSTOM_REASON_MAX) return moderationMessages.maxLength;
  return null;
}

/** The body of a save: the rationale is the reason's text, or the custom text for 'other'. */
export function toFields(reviewId: number, draft: ModerationDraft, reasonLabel: (reason: string) => string): ModerationFields | null {
  if (draft.classification === null || draft.reason === null) return null;
  const other = draft.reason === 'other';
  return {
    review_id: reviewId,
    classification: draft.classification,
    rationale: other ? draft.custom.trim() : reasonLabel(draft.reason),
    predefined_reason: draft.reason,
    custom_rationale: other ? draft.custom.trim() : null,
  };
}

export interface ModerationFormHandle {
  classify: (classification: 0 | 1) => void;
  focusReason: () => void;
  save: () => void;
}

/**
 * The moderation form of spec §2.15 (F-013..F-034): 'approved' and 'excluded', the reason list of that
 * classification with 'other' last opening a custom text, save only once both are chosen, clear; create, edit and
 * delete. What is chosen is kept as a draft in the browser until saved, deleted or cleared. `handle` lets the page's
 * keyboard shortcuts drive it.
 */
export function ModerationForm({
  review,
  userId,
  handle,
}: {
  review: ReviewPublic;
  userId: string;
  handle?: React.RefObject<ModerationFormHandle | null>;
}) {
  const own = review.moderation;
  const { data: saved, isPending } = useQuery({ ...moderationQuery(own?.row_id ?? 0), enabled: own !== null });
  if (own !== null && isPending) return null;
  const savedDraft: ModerationDraft = saved
    ? {
        classification: saved.classification === 0 ? 0 : 1,
        reason: saved.predefined_reason ?? (saved.custom_rationale ? 'other' : null),
        custom: saved.custom_rationale ?? '',
      }
    : emptyDraft;
  return (
    <FormBody
      key={`${review.row_id}-${own?.row_id ?? 'new'}`}
      review={review}
      rowId={own?.row_id ?? null}
      savedDraft={savedDraft}
      storageKey={draftKey(userId, review.row_id)}
      handle={handle}
    />
  );
}

function FormBody({
  review,
  rowId,
  savedDraft,
  storageKey,
  handle,
}: {
  review: ReviewPublic;
  rowId: number | null;
  savedDraft: ModerationDraft;
  storageKey: string;
  handle?: React.RefObject<ModerationFormHandle | null>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ModerationDraft>(() => loadDraft(localStorage, storageKey) ?? savedDraft);
  const [customTouched, setCustomTouched] = useState(false);
  // A save asked for by the keyboard before both are chosen shows what is missing (F-022, F-023); the button itself
  // shows only once both are chosen (F-020).
  const [saveAttempted, setSaveAttempted] = useState(false);
  const reasonRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  useKeepFieldInView(rootRef);
  const change = useChangeModeration({ onDone: () => clearDraft(localStorage, storageKey) });

  const update = (next: ModerationDraft) => {
    setDraft(next);
    saveDraft(localStorage, storageKey, next);
  };
  // Changing the classification clears the reason (spec §4, F-018).
  const classify = (classification: 0 | 1) => {
    if (classification === draft.classification) return;
    update({ classification, reason: null, custom: '' });
  };
  const reasonLabel = (reason: string) => t(`moderation.reasons.${classificationName(draft.classification ?? 1)}.${reason}`);
  const customError = draft.reason === 'other' ? customReasonError(draft.custom) : null;
  const canSave = draft.classification !== null && draft.reason !== null;
  const save = () => {
    if (!canSave) {
      setSaveAttempted(true);
      return;
    }
    if (change.isPending) return;
    if (customError) {
      setCustomTouched(true);
      return;
    }
    const values = toFields(review.row_id, draft, reasonLabel);
    if (values) change.mutate({ kind: 'save', rowId, values });
  };
  const focusReason = () => {
    const radios = reasonRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    if (!radios || radios.length === 0) return;
    ([...radios].find((radio) => radio.checked) ?? radios[0])?.focus();
  };
  useEffect(() => {
    if (!handle) return;
    handle.current = { classify, focusReason, save };
  });

  return (
    <Paper
      ref={rootRef}
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="moderation-form-title"
      data-testid="moderation-form"
      className="phone-form"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="moderation-form-title">
          {t('moderation.formTitle')}
        </Title>
        <Group
          gap="sm"
          role="group"
          aria-label={t('moderation.classificationLabel')}
          aria-describedby={saveAttempted && draft.classification === null ? 'moderation-classification-error' : undefined}
        >
          <Button
            color="green"
            variant={draft.classification === ModerationClassification.included ? 'filled' : 'outline'}
            aria-pressed={draft.classification === ModerationClassification.included}
            onClick={() => classify(ModerationClassification.included)}
          >
            {t('moderation.approved')}
          </Button>
          <Button
            color="red"
            variant={draft.classification === ModerationClassification.excluded ? 'filled' : 'outline'}
            aria-pressed={draft.classification === ModerationClassification.excluded}
            onClick={() => classify(ModerationClassification.excluded)}
          >
            {t('moderation.excluded')}
          </Button>
        </Group>
        {saveAttempted && draft.classification === null && (
          <Text size="sm" c="red.8" role="alert" id="moderation-classification-error">
            {moderationMessages.classificationRequired}
          </Text>
        )}
        {draft.classification !== null && (
          <Radio.Group
            ref={reasonRef}
            label={t('moderation.reasonLabel')}
            value={draft.reason}
            onChange={(reason) => update({ ...draft, reason, custom: reason === 'other' ? draft.custom : '' })}
            error={saveAttempted && draft.reason === null ? moderationMessages.reasonRequired : undefined}
          >
            <Stack gap={6} mt="xs">
              {reasonsFor(draft.classification).map((reason) => (
                <Radio key={reason} value={reason} label={reasonLabel(reason)} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {draft.reason === 'other' && (
          <Textarea
            label={t('moderation.customLabel')}
            value={draft.custom}
            maxLength={CUSTOM_REASON_MAX}
            autosize
            minRows={3}
            onChange={(event) => {
              setCustomTouched(true);
              update({ ...draft, custom: event.currentTarget.value });
            }}
            onBlur={() => setCustomTouched(true)}
            error={customTouched ? customError : null}
            description={`${draft.custom.length} / ${CUSTOM_REASON_MAX}`}
          />
        )}
        {/* On phones and tablets the actions stay on screen while the reason is typed (issue 19 item 3). */}
        <Group gap="sm" className="sticky-actions">
          {canSave && (
            <Button onClick={save} loading={change.isPending}>
              {rowId === null ? t('moderation.save') : t('moderation.update')}
            </Button>
          )}
          <Button
            variant="default"
            onClick={() => {
              clearDraft(localStorage, storageKey);
              setCustomTouched(false);
              setSaveAttempted(false);
              setDraft(savedDraft);
            }}
          >
            {t('moderation.clear')}
          </Button>
          {rowId !== null && (
            <Button color="red" variant="subtle" loading={change.isPending} onClick={() => change.mutate({ kind: 'delete', rowId })}>
              {t('moderation.delete')}
            </Button>
          )}
        </Group>
        {rowId !== null && (
          <Text size="sm" c="dimmed" data-testid="own-moderation">
            {t('moderation.yourModeration', {
              classification: t(`moderation.classification.${savedDraft.classification ?? 1}`),
            })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
