import { Alert, Loader, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoverageReviewKind, CoverageSummary } from '@cr/contract/coverage';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { TablePagination } from '../../../components/query-pagination';
import { ScrollTable } from '../../../components/scroll-table';
import { COVERAGE_PAGE_SIZE, coverageModeratorsQuery, coverageReviewsQuery, coverageSummaryQuery } from '../api/coverage';
import { formatLocale } from '../../../lib/locale';

/** The summary's figures in the order the table shows them. */
const FIGURES = [
  'per_review',
  'allocated_reviews',
  'short_reviews',
  'missing_moderations',
  'ties',
  'moderators_unfinished',
  'unfinished_allocations',
  'to_top_up',
  'top_up_runs',
  'topped_up_allocations',
] as const satisfies readonly (keyof CoverageSummary)[];

function CoverageFigures({ summary }: { summary: CoverageSummary }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {!summary.per_review_from_run && (
        <Alert color="yellow" variant="light">
          {t('adminRuns.coverage.perReviewDefault', { count: summary.per_review })}
        </Alert>
      )}
      <Table withTableBorder variant="vertical" layout="fixed" captionSide="top" maw={560}>
        <Table.Caption>{t('adminRuns.coverage.figuresCaption')}</Table.Caption>
        <Table.Tbody>
          {FIGURES.map((name) => (
            <Table.Tr key={name}>
              <Table.Th scope="row">{t(`adminRuns.coverage.figures.${name}`)}</Table.Th>
              <Table.Td>{summary[name].toLocaleString(formatLocale())}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function CoverageReviews({ eventId, kind }: { eventId: number; kind: CoverageReviewKind }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { data, isError } = useQuery(coverageReviewsQuery(eventId, kind, page));
  if (isError) return <Alert color="red">{t('adminRuns.coverage.fetchFailed')}</Alert>;
  if (!data) return <Loader size="sm" role="status" aria-label={t('common.loading')} />;
  const columns = ['review', 'proposal', 'assessor', 'allocated', 'moderations', 'includes', 'excludes', 'pending', 'toTopUp'] as const;
  return (
    <Stack gap="xs">
      <ScrollTable minWidth={720} label={t(`adminRuns.coverage.${kind}Caption`, { count: data.page.total })}>
        <Table withTableBorder captionSide="top">
          <Table.Caption>{t(`adminRuns.coverage.${kind}Caption`, { count: data.page.total })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column} scope="col">
                  {t(`adminRuns.coverage.columns.${column}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.data.length === 0 && <EmptyTableRow colSpan={columns.length} />}
            {data.data.map((row) => (
              <Table.Tr key={row.review_id}>
                <Table.Td>{row.review_id}</Table.Td>
                <Table.Td>{row.proposal_title}</Table.Td>
                <Table.Td>{row.assessor}</Table.Td>
                <Table.Td>{row.allocated}</Table.Td>
                <Table.Td>{row.moderations}</Table.Td>
                <Table.Td>{row.includes}</Table.Td>
                <Table.Td>{row.excludes}</Table.Td>
                <Table.Td>{row.topped_up_pending}</Table.Td>
                <Table.Td>{row.to_top_up}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {data.page.total > COVERAGE_PAGE_SIZE && (
        <TablePagination total={data.page.total} size={COVERAGE_PAGE_SIZE} page={page} onChange={setPage} />
      )}
    </Stack>
  );
}

function UnfinishedModerators({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { data, isError } = useQuery(coverageModeratorsQuery(eventId, page));
  if (isError) return <Alert color="red">{t('adminRuns.coverage.fetchFailed')}</Alert>;
  if (!data) return <Loader size="sm" role="status" aria-label={t('common.loading')} />;
  const columns = ['moderator', 'allocated', 'moderated', 'unfinished'] as const;
  return (
    <Stack gap="xs">
      <Table withTableBorder captionSide="top" maw={720}>
        <Table.Caption>{t('adminRuns.coverage.moderatorsCaption', { count: data.page.total })}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column} scope="col">
                {t(`adminRuns.coverage.columns.${column}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.data.length === 0 && <EmptyTableRow colSpan={columns.length} />}
          {data.data.map((row) => (
            <Table.Tr key={row.assessor}>
              <Table.Td>{row.assessor}</Table.Td>
              <Table.Td>{row.allocated}</Table.Td>
              <Table.Td>{row.moderated}</Table.Td>
              <Table.Td>{row.unfinished}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data.page.total > COVERAGE_PAGE_SIZE && (
        <TablePagination total={data.page.total} size={COVERAGE_PAGE_SIZE} page={page} onChange={setPage} />
      )}
    </Stack>
  );
}

/**
 * Moderation coverage (issue 28 item 1): the round's figures, then the short reviews, the ties and the moderators with
 * unfinished allocations, each a list of 25 a page.
 */
export function ModerationCoverage({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const summary = useQuery(coverageSummaryQuery(eventId));
  if (summary.isError) return <Alert color="red">{t('adminRuns.coverage.fetchFailed')}</Alert>;
  if (!summary.data) return <Loader size="sm" role="status" aria-label={t('common.loading')} />;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('adminRuns.coverage.intro')}
      </Text>
      <CoverageFigures summary={summary.data} />
      <Tabs defaultValue="short" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="short">{t('adminRuns.coverage.tabs.short', { count: summary.data.short_reviews })}</Tabs.Tab>
          <Tabs.Tab value="ties">{t('adminRuns.coverage.tabs.ties', { count: summary.data.ties })}</Tabs.Tab>
          <Tabs.Tab value="moderators">{t('adminRuns.coverage.tabs.moderators', { count: summary.data.moderators_unfinished })}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="short" pt="sm">
          <CoverageReviews eventId={eventId} kind="short" />
        </Tabs.Panel>
        <Tabs.Panel value="ties" pt="sm">
          <CoverageReviews eventId={eventId} kind="ties" />
        </Tabs.Panel>
        <Tabs.Panel value="moderators" pt="sm">
          <UnfinishedModerators eventId={eventId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
