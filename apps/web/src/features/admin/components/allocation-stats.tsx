import { SimpleGrid, Stack, Table } from '@mantine/core';
import type { AllocationStats } from '@cr/contract/proposals';
import { useTranslation } from 'react-i18next';
import { Histogram } from './histogram';

const formatAverage = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/**
 * The result of a proposal allocation (spec §3 "Allocation parameters (proposals)"): tot, nr_of_reviewers (tot, lv0,
 * lv1), per_reviewer and per_proposal (avg, min, max), and the two histograms.
 */
export function AllocationStatsView({ stats }: { stats: AllocationStats }) {
  const { t } = useTranslation();
  const counts: [string, number][] = [
    [t('adminRuns.allocation.tot'), stats.tot],
    [t('adminRuns.allocation.reviewers'), stats.nr_of_reviewers.tot],
    [t('adminRuns.allocation.reviewersLv0'), stats.nr_of_reviewers.lv0],
    [t('adminRuns.allocation.reviewersLv1'), stats.nr_of_reviewers.lv1],
  ];
  const spreads = [
    [t('adminRuns.allocation.perReviewer'), stats.per_reviewer],
    [t('adminRuns.allocation.perProposal'), stats.per_proposal],
  ] as const;
  return (
    <Stack gap="md" data-testid="allocation-stats">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Table withTableBorder variant="vertical" layout="fixed" captionSide="top">
          <Table.Caption>{t('adminRuns.allocation.countsCaption')}</Table.Caption>
          <Table.Tbody>
            {counts.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Table withTableBorder captionSide="top">
          <Table.Caption>{t('adminRuns.allocation.spreadCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <span className="visually-hidden">{t('adminRuns.allocation.measure')}</span>
              </Table.Th>
              <Table.Th scope="col">{t('adminRuns.allocation.avg')}</Table.Th>
              <Table.Th scope="col">{t('adminRuns.allocation.min')}</Table.Th>
              <Table.Th scope="col">{t('adminRuns.allocation.max')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {spreads.map(([label, spread]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{formatAverage(spread.avg)}</Table.Td>
                <Table.Td>{spread.min}</Table.Td>
                <Table.Td>{spread.max}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Histogram
          title={t('adminRuns.allocation.histogramPerProposal')}
          data={stats.histograms.per_proposal}
          valueLabel={t('adminRuns.allocation.allocations')}
          countLabel={t('adminRuns.allocation.proposals')}
        />
        <Histogram
          title={t('adminRuns.allocation.histogramPerReviewer')}
          data={stats.histograms.per_reviewer}
          valueLabel={t('adminRuns.allocation.allocations')}
          countLabel={t('adminRuns.allocation.reviewersColumn')}
        />
      </SimpleGrid>
    </Stack>
  );
}
