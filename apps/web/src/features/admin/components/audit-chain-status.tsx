import { Alert, Code, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateLong } from '../../../lib/format';
import { auditChainQuery } from '../api/audit';

/**
 * The audit tab's chain state (issue 48 item 3): whether the log's hash chain verifies (else its first broken link)
 * and the head an operator publishes (docs/security.md "The audit hash chain").
 */
export function AuditChainStatus() {
  const { t } = useTranslation();
  const { data, isPending, error } = useQuery(auditChainQuery);
  if (error) {
    return (
      <Alert color="red" role="alert">
        {t('audit.chain.fetchFailed')}
      </Alert>
    );
  }
  if (isPending || !data) return <Loader size="sm" role="status" aria-label={t('audit.chain.checking')} />;
  return (
    <Alert
      color={data.verified ? 'green' : 'red'}
      role={data.verified ? 'status' : 'alert'}
      title={data.verified ? t('audit.chain.verified') : t('audit.chain.broken')}
      data-testid="audit-chain"
    >
      <Stack gap={4}>
        {data.verified ? (
          <Text size="sm">{t('audit.chain.verifiedText', { count: data.entries, at: formatDateLong(data.checked_at) })}</Text>
        ) : (
          <Text size="sm">{t('audit.chain.brokenText', { entry: data.broken?.entry_id, reason: data.broken?.reason })}</Text>
        )}
        {data.legacy > 0 && <Text size="sm">{t('audit.chain.legacy', { count: data.legacy })}</Text>}
        <Text size="sm">{data.head ? t('audit.chain.head', { entry: data.head.entry_id }) : t('audit.chain.noHead')}</Text>
        {data.head && (
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {data.head.hash}
          </Code>
        )}
        <Text size="xs" c="dimmed">
          {t('audit.chain.publish')}
        </Text>
      </Stack>
    </Alert>
  );
}
