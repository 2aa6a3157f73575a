import { Alert, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ownReviewQuery } from '../api/get-own-review';
import { clearDraft, draftKey, emptyReview, fieldsOf, loadDraft } from '../values';
import { useConfirmDelete } from './use-confirm-delete';
import { OwnReviewView } from './own-review-view';

interface OwnReviewFormProps {
  proposalId: number;
  /** Named where a write made offline is listed (issue 29). */
  proposalTitle?: string;
  /** Whose drafts: one per user and proposal. */
  userId: string;
  /** Open the saved review in edit mode (Edit on the review's page, issue 12 item 11). */
  startEditing?: boolean;
}

// The editor (react-hook-form, the star ratings and, on the first check, the contract's review schema) loads only for
// someone who may review the proposal, beside their own review's query (issue 30 item 5: a visitor's proposal page).
const loadEditor = () => import('./own-review-editor').then((module) => ({ default: module.OwnReviewEditor }));
const OwnReviewEditor = lazy(loadEditor);

/**
 * The viewer's own review of a proposal (spec §2.12, E-003..E-016): view mode for a saved review, edit mode for a new
 * one, while editing, and whenever an unsaved draft is waiting in the browser. The route decides whether it shows.
 */
export function OwnReviewForm({ proposalId, proposalTitle, userId, startEditing = false }: OwnReviewFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const own = useQuery(ownReviewQuery(proposalId));
  useEffect(() => void loadEditor(), []);
  const storageKey = draftKey(userId, proposalId);
  // A draft left from an earlier visit opens the form in edit mode, as does Edit on the review's own page.
  const [isEditing, setEditing] = useState(() => startEditing || loadDraft(localStorage, storageKey) !== null);
  const review = own.data ?? null;
  const { confirmDelete, isDeleting } = useConfirmDelete({
    proposalId,
    draftStorageKey: storageKey,
    onDeleted: () => setEditing(true),
  });

  const loading = (
    <Center py="md">
      <Loader size="sm" role="status" aria-label={t('common.loading')} />
    </Center>
  );
  let body;
  if (own.isPending) {
    body = loading;
  } else if (own.isError) {
    body = <Alert color="red">{t('reviews.ownLoadFailed')}</Alert>;
  } else if (review && !isEditing) {
    body = (
      <OwnReviewView
        review={review}
        onEdit={() => setEditing(true)}
        onDelete={() => confirmDelete(review.row_id)}
        isDeleting={isDeleting}
      />
    );
  } else {
    body = (
      <Suspense fallback={loading}>
        <OwnReviewEditor
          key={review?.row_id ?? 'new'}
          proposalId={proposalId}
          proposalTitle={proposalTitle}
          rowId={review?.row_id ?? null}
          savedValues={review ? fieldsOf(review) : emptyReview()}
          draftStorageKey={storageKey}
          onSaved={() => setEditing(false)}
          onCancel={
            review
              ? () => {
                  clearDraft(localStorage, storageKey);
                  setEditing(false);
                }
              : undefined
          }
          onDelete={review ? () => confirmDelete(review.row_id) : undefined}
          isDeleting={isDeleting}
        />
      </Suspense>
    );
  }

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder radius="md" p="md" data-testid="own-review">
      <Stack gap="md">
        <Title order={2} size="h3" id={headingId}>
          {t('reviews.ownTitle')}
        </Title>
        {!review && !own.isPending && !own.isError && (
          <Text size="sm" c="dimmed">
            {t('reviews.newIntro')}
          </Text>
        )}
        {body}
      </Stack>
    </Paper>
  );
}
