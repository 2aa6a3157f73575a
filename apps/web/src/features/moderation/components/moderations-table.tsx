import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { CELL_CLASS, PlainTable, ROW_CLASS } from '../../../components/plain';
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
      <PlainTable aria-label={t('moderation.tableLabel')} data-testid="moderations-table">
        <thead>
          <tr>
            <th>{t('moderation.tableColumns.classification')}</th>
            <th>{t('moderation.tableColumns.rationale')}</th>
            <th>{t('moderation.tableColumns.contact')}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((moderation) => (
            <tr key={moderation.row_id} className={ROW_CLASS}>
              <td className={CELL_CLASS}>{t(`moderation.classification.${moderation.classification === 0 ? 0 : 1}`)}</td>
              <td className={CELL_CLASS}>{moderation.rationale}</td>
              <td className={CELL_CLASS}>{moderation.public_contact ?? '—'}</td>
            </tr>
          ))}
          {data.length === 0 && <EmptyTableRow colSpan={3} />}
        </tbody>
      </PlainTable>
    </Stack>
  );
}
