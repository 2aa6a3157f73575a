import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { openConfirmModal } from '../../../lib/modals';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { useDeleteReview } from '../api/delete-review';
import { QueuedOffline } from '../offline-outbox';
import { clearDraft } from '../values';

interface ConfirmDeleteOptions {
  proposalId: number;
  /** The viewer's draft of this review, forgotten with it. */
  draftStorageKey: string | null;
  onDeleted?: () => void;
}

/**
 * Deleting the viewer's review (E-013..E-015), wherever it is offered (the proposal's form, the review's page): a
 * confirmation first, then the toast that names the action, and the draft goes with the review.
 */
export function useConfirmDelete({ proposalId, draftStorageKey, onDeleted }: ConfirmDeleteOptions) {
  const { t } = useTranslation();
  const remove = useDeleteReview(proposalId, {
    onDone: () => {
      if (draftStorageKey) clearDraft(localStorage, draftStorageKey);
    },
  });
  const confirmDelete = (rowId: number) =>
    openConfirmModal({
      title: t('reviews.deleteTitle'),
      children: <Text size="sm">{t('reviews.deleteText')}</Text>,
      labels: { confirm: t('reviews.deleteConfirm'), cancel: t('reviews.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        try {
          await remove.mutateAsync(rowId);
          notifySuccess('reviews.deleted', 'reviews.saved');
          onDeleted?.();
        } catch (error) {
          if (error instanceof QueuedOffline) notifyInfo('offline.queuedToast', 'offline.queuedTitle');
          else notifyError(error, 'reviews.saveFailed');
        }
      },
    });
  return { confirmDelete, isDeleting: remove.isPending };
}
