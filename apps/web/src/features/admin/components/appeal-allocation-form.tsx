import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { appealAllocationParams, type AppealAllocationStats } from '@cr/contract/appeals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { TablePagination } from '../../../components/query-pagination';
import { TableStatusRows } from '../../../components/table-status-rows';
import { paths } from '../../../config/paths';
import { APPEALS_PAGE_SIZE, eventAppealsQuery, useAllocateAppeals } from '../api/appeal-runs';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { RunNumberFields, type RunNumberSpec } from './run-controls';

type Params = z.input<typeof appealAllocationParams>;
const PARAMETERS: RunNumberSpec<Params>[] = [{ name: 'appeal_seed', min: 1 }];
const STATS = [
  'open_appeals',
  'allocated_appeals',
  'short_appeals',
  'unallocated_appeals',
  'decisions_needed',
  'tot',
  'nr_of_moderators',
] as const;

/** The run's statistics: the appeals it allocated (fully, short of N, not at all) and the moderators' loads. */
export function AppealAllocationStatsView({ stats }: { stats: AppealAllocationStats }) {
  const { t } = useTranslation();
  return (
    <Table withTableBorder variant="vertical" layout="fixed" maw={560}>
      <Table.Tbody>
        {STATS.map((name) => (
          <Table.Tr key={name}>
            <Table.Th scope="row">{t(`appeals.allocation.stats.${name}`)}</Table.Th>
            <Table.Td>{stats[name]}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Th scope="row">{t('appeals.allocation.stats.per_moderator')}</Table.Th>
          <Table.Td>{t('appeals.allocation.stats.range', stats.per_moderator)}</Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * The appeals' allocation run (issue 28 item 2), the admin-run pattern: a dry run answers the statistics; a real run
 * (confirmed) allocates each open appeal to N fresh moderators. It may run again for appeals made since; it is
 * disabled once proposal scores ran (the appeals are closed then).
 */
export function AppealAllocationForm({ eventId, isClosed }: { eventId: number; isClosed: boolean }) {
  const run = useAdminRunForm({
    schema: appealAllocationParams,
    defaultValues: { event_id: eventId, appeal_seed: 1, dry_run: true },
    mutation: useAllocateAppeals(eventId),
    labels: runLabels('appeals.allocation'),
  });
  return (
    <AdminRunControls
      run={run}
      disabled={isClosed}
      renderResult={(stats: AppealAllocationStats) => <AppealAllocationStatsView stats={stats} />}
    >
      <RunNumberFields form={run.form} prefix="appeals.allocation" fields={PARAMETERS} disabled={isClosed || run.isPending} />
    </AdminRunControls>
  );
}

/** The event's appeals (admins): the review, the status, the decisions so far of N. */
export function EventAppealsTable({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { data, isPending } = useQuery(eventAppealsQuery(eventId, page));
  const rows = data?.data ?? [];
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('appeals.eventList.title')}
      </Title>
      <Table withTableBorder captionSide="top">
        <Table.Caption>{t('appeals.eventList.caption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('appeals.columns.review')}</Table.Th>
            <Table.Th scope="col">{t('appeals.columns.status')}</Table.Th>
            <Table.Th scope="col">{t('appeals.columns.decisions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <TableStatusRows isLoading={isPending} isEmpty={!isPending && rows.length === 0} colSpan={3} />
          {rows.map((appeal) => (
            <Table.Tr key={appeal.row_id}>
              <Table.Td>
                <Anchor component={Link} to={paths.review(appeal.review_id)}>
                  {appeal.proposal_title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="light">{t(`appeals.status.${appeal.status}`)}</Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t('appeals.tally', appeal)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {data && data.page.total > APPEALS_PAGE_SIZE && (
        <TablePagination total={data.page.total} size={APPEALS_PAGE_SIZE} page={page} onChange={setPage} />
      )}
    </Stack>
  );
}
