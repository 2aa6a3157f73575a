import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { MAIL_STATUSES, type MailQueueFailure, type MailQueueKind } from '@cr/contract/mail';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { ScrollTable } from '../../../components/scroll-table';
import { mailQueueQuery, useRetryFailedMails } from '../../../features/admin/api/mail-queue';
import { formatDateLong, formatDuration } from '../../../lib/format';
import { openConfirmModal } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { formatLocale } from '../../../lib/locale';

/** A kind's name (an unknown kind as the queue names it). */
const kindLabel = (t: TFunction, kind: string) => t(`mailQueue.kinds.${kind}`, { defaultValue: kind });

/** Mails per kind and status, and their totals. */
function KindsTable({ kinds, totals }: { kinds: MailQueueKind[]; totals: Omit<MailQueueKind, 'kind'> }) {
  const { t } = useTranslation();
  return (
    <ScrollTable minWidth={560} label={t('mailQueue.kindsTable')}>
      <Table striped verticalSpacing="xs" aria-label={t('mailQueue.kindsTable')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('mailQueue.columns.kind')}</Table.Th>
            {MAIL_STATUSES.map((status) => (
              <Table.Th key={status} ta="right">
                {t(`mailQueue.statuses.${status}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {kinds.length === 0 && <EmptyTableRow colSpan={MAIL_STATUSES.length + 1} />}
          {kinds.map((row) => (
            <Table.Tr key={row.kind}>
              <Table.Th scope="row" fw={400}>
                {kindLabel(t, row.kind)}
              </Table.Th>
              {MAIL_STATUSES.map((status) => (
                <Table.Td key={status} ta="right">
                  {row[status].toLocaleString(formatLocale())}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {kinds.length > 1 && (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">{t('mailQueue.total')}</Table.Th>
              {MAIL_STATUSES.map((status) => (
                <Table.Th key={status} ta="right">
                  {totals[status].toLocaleString(formatLocale())}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        )}
      </Table>
    </ScrollTable>
  );
}

/** The last failures, newest first, each with the SMTP server's answer or the error. */
function FailuresTable({ failures }: { failures: MailQueueFailure[] }) {
  const { t } = useTranslation();
  const columns = ['failedAt', 'kind', 'recipient', 'attempts', 'reason'] as const;
  return (
    <ScrollTable minWidth={760} label={t('mailQueue.failuresTable')}>
      <Table striped verticalSpacing="xs" aria-label={t('mailQueue.failuresTable')}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((name) => (
              <Table.Th key={name}>{t(`mailQueue.columns.${name}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {failures.length === 0 && <EmptyTableRow colSpan={columns.length} />}
          {failures.map((failure) => (
            <Table.Tr key={failure.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateLong(failure.failed_at)}</Table.Td>
              <Table.Td>{kindLabel(t, failure.kind)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{failure.recipient}</Table.Td>
              <Table.Td ta="right">{failure.attempts}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{failure.error ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/**
 * The Mail queue tab (issue 27): every mail the site sends waits in the queue until the mail worker sends it. Shows
 * the mails per kind and status, how long the oldest queued one has waited and the last failures with their reasons;
 * "Retry failed" puts every failed mail back in the queue.
 */
export default function AdminMailQueue() {
  const { t } = useTranslation();
  const { data, isError, error } = useQuery(mailQueueQuery);
  const retry = useRetryFailedMails();
  useEffect(() => {
    if (isError) notifyError(error, 'mailQueue.fetchFailed');
  }, [isError, error]);
  const failed = data?.totals.failed ?? 0;

  const confirmRetry = () =>
    openConfirmModal({
      title: t('mailQueue.retryTitle'),
      children: <Text size="sm">{t('mailQueue.retryText', { count: failed })}</Text>,
      labels: { confirm: t('mailQueue.retryConfirm'), cancel: t('mailQueue.cancel') },
      onConfirm: async () => {
        try {
          const { retried } = await retry.mutateAsync({});
          notifySuccess('mailQueue.retried', 'notify.successTitle', { count: retried });
        } catch (failure) {
          notifyError(failure, 'mailQueue.retryFailed');
        }
      },
    });

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          {t('mailQueue.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('mailQueue.hint')}
        </Text>
      </div>
      {data && (
        <>
          <Text>
            {data.oldest_queued_seconds === null
              ? t('mailQueue.nothingWaiting')
              : t('mailQueue.oldestWaiting', { age: formatDuration(data.oldest_queued_seconds) })}
          </Text>
          <KindsTable kinds={data.kinds} totals={data.totals} />
          <Group justify="space-between" align="flex-end">
            <Title order={3} size="h4">
              {t('mailQueue.failuresTitle')}
            </Title>
            <Button leftSection={<IconRefresh size={16} />} onClick={confirmRetry} disabled={failed === 0} loading={retry.isPending}>
              {t('mailQueue.retry')}
            </Button>
          </Group>
          <FailuresTable failures={data.failures} />
        </>
      )}
    </Stack>
  );
}
