import { SimpleGrid, Stack, Table } from '@mantine/core';
import type { ModerationAllocationStats } from '@cr/contract/moderations';
import type { AllocationStats } from '@cr/contract/proposals';
import { useTranslation } from 'react-i18next';
import { Histogram } from './histogram';

const formatAverage = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

type Spread = { avg: number; min: number; max: number };

/**
 * The two tables of an allocation's result, shared by the proposal and the moderation allocation: the counts, and
 * the spreads with avg, min and max.
 */
export function AllocationStatsTables({
  counts,
  spreads,
}: {
  counts: [string, number][];
  spreads: readonly (readonly [string, Spread])[];
}) {
  const { t } = useTranslation();
  return (
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
  );
}

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
      <AllocationStatsTables counts={counts} spreads={spreads} />
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

/**
 * The result of a moderation allocation (spec §3 "Allocation parameters (moderation)", F-055): tot, nr_of_moderators,
 * how many reviews were flagged and spot-checked, per_reviewer, per_review and per_moderator (avg, min, max), and the
 * histograms per review and per moderator.
 */
export function ModerationAllocationStatsView({ stats }: { stats: ModerationAllocationStats }) {
  const { t } = useTranslation();
  const counts: [string, number][] = [
    [t('adminRuns.moderation.tot'), stats.tot],
    [t('adminRuns.moderation.moderators'), stats.nr_of_moderators],
    [t('adminRuns.moderation.flagged'), stats.selected.flagged],
    [t('adminRuns.moderation.spotChecks'), stats.selected.spot_checks],
  ];
  const spreads = [
    [t('adminRuns.moderation.perReviewer'), stats.per_reviewer],
    [t('adminRuns.moderation.perReview'), stats.per_review],
    [t('adminRuns.moderation.perModerator'), stats.per_moderator],
  ] as const;
  return (
    <Stack gap="md" data-testid="moderation-allocation-stats">
      <AllocationStatsTables counts={counts} spreads={spreads} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Histogram
          title={t('adminRuns.moderation.histogramPerReview')}
          data={stats.histograms.per_review}
          valueLabel={t('adminRuns.moderation.moderations')}
          countLabel={t('adminRuns.moderation.reviews')}
        />
        <Histogram
          title={t('adminRuns.moderation.histogramPerModerator')}
          data={stats.histograms.per_moderator}
          valueLabel={t('adminRuns.moderation.moderations')}
          countLabel={t('adminRuns.moderation.moderatorsColumn')}
        />
      </SimpleGrid>
    </Stack>
  );
}
