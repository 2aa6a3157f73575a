import { Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { reviewModerationsQuery } from '../api/moderations';

/** A review's moderations (spec §2.15, F-035, F-038): classification as included or excluded, rationale, contact. */
export function ModerationsTable({ reviewId }: { reviewId: number }) {
  const { t } = useTranslation();
  const { data = [] } = useQuery(reviewModerationsQuery(reviewId));
  return (
    <Stack gap="xs" component="section" aria-labelledby="moderations-title">
      <Title order={2} size="h3" id="moderations-title">
        {t('moderation.tableTitle')}
      </Title>
      <Table aria-label={t('moderation.tableLabel')} data-testid="moderations-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('moderation.tableColumns.classification')}</Table.Th>
            <Table.Th>{t('moderation.tableColumns.rationale')}</Table.Th>
            <Table.Th>{t('moderation.tableColumns.contact')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((moderation) => (
            <Table.Tr key={moderation.row_id}>
              <Table.Td>{t(`moderation.classification.${moderation.classification === 0 ? 0 : 1}`)}</Table.Td>
              <Table.Td>{moderation.rationale}</Table.Td>
              <Table.Td>{moderation.public_contact ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
          {data.length === 0 && <EmptyTableRow colSpan={3} />}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
