import { SimpleGrid, Stack } from '@mantine/core';
import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TOP_UP_DEFAULTS, topUpParams, type TopUpParamsInput, type TopUpStats } from '@cr/contract/coverage';
import { FormSwitch } from '../../../components/form-switch';
import { useTopUpModeration } from '../api/coverage';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { AllocationStatsTables } from './allocation-stats';
import { Histogram } from './histogram';
import { RunNumberFields, type RunNumberSpec } from './run-controls';

const NUMBER_FIELDS: RunNumberSpec<TopUpParamsInput>[] = [{ name: 'top_up_seed', min: 1 }];

/** The top-up's statistics: what was needed and added, and how the new allocations spread over the moderators. */
export function TopUpStatsView({ stats }: { stats: TopUpStats }) {
  const { t } = useTranslation();
  const counts: [string, number][] = [
    [t('adminRuns.topUp.reviews'), stats.reviews],
    [t('adminRuns.topUp.needed'), stats.needed],
    [t('adminRuns.topUp.tot'), stats.tot],
    [t('adminRuns.topUp.unfilled'), stats.reviews_unfilled],
    [t('adminRuns.topUp.moderators'), stats.nr_of_moderators],
  ];
  const spreads = [
    [t('adminRuns.topUp.perModerator'), stats.per_moderator],
    [t('adminRuns.topUp.perReview'), stats.per_review_added],
  ] as const;
  return (
    <Stack gap="md">
      <AllocationStatsTables counts={counts} spreads={spreads} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Histogram
          title={t('adminRuns.topUp.histogramPerModerator')}
          data={stats.histograms.per_moderator}
          valueLabel={t('adminRuns.topUp.added')}
          countLabel={t('adminRuns.moderation.moderatorsColumn')}
        />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * The coverage top-up (issue 28 item 1): a seed and whether ties get a tie-breaker, then the admin-run flow (dry run
 * first; a real run after the warning; it may run again later). Shown once the moderation allocation ran; disabled
 * once the review outcomes exist.
 */
export function TopUpForm({ eventId, outcomesGenerated }: { eventId: number; outcomesGenerated: boolean }) {
  const { t } = useTranslation();
  const run = useAdminRunForm({
    schema: topUpParams,
    defaultValues: { event_id: eventId, ...TOP_UP_DEFAULTS, dry_run: true },
    mutation: useTopUpModeration(eventId),
    labels: runLabels('adminRuns.topUp'),
  });
  const disabled = outcomesGenerated;
  return (
    <AdminRunControls run={run} disabled={disabled} renderResult={(stats: TopUpStats) => <TopUpStatsView stats={stats} />}>
      <RunNumberFields form={run.form} prefix="adminRuns.topUp" fields={NUMBER_FIELDS} disabled={disabled || run.isPending} />
      <FormSwitch
        control={run.form.control as unknown as Control<TopUpParamsInput>}
        name="break_ties"
        label={t('adminRuns.topUp.break_ties')}
        description={t('adminRuns.topUp.break_tiesHint')}
        disabled={disabled || run.isPending}
      />
    </AdminRunControls>
  );
}
