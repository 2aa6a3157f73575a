import { Stack, Table, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { OUTCOME_DEFAULTS, outcomeParams, type OutcomeParams, type OutcomeParamsInput, type OutcomeStats } from '@cr/contract/outcomes';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { useGenerateReviewOutcomes } from '../api/closing-runs';
import { AdminRunControls, runLabels, useAdminRun } from './admin-run-controls';
import { RunNumberField, RunRatioField } from './run-controls';
import { formatRate } from './score-table';

/** Spec §3 "Outcome parameters": the counts of the result, in the spec's order (G-006). */
export const OUTCOME_COUNTS = [
  'nr_of_reviewers',
  'nr_of_accepted_reviewers',
  'nr_of_excluded_reviewers',
  'nr_of_reviews',
  'nr_of_accepted_reviews',
  'nr_of_excluded_reviews',
  'nr_of_excluded_reviews_by_moderation',
  'nr_of_excluded_reviews_by_threshold',
] as const;

/** The outcome run's statistics: every count of §3, and the excluded reviewers by anonymous id with their approval rate. */
export function OutcomeStatsView({ stats }: { stats: OutcomeStats }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Table withTableBorder variant="vertical" layout="fixed" captionSide="top" maw={560}>
        <Table.Caption>{t('adminRuns.outcomes.countsCaption')}</Table.Caption>
        <Table.Tbody>
          {OUTCOME_COUNTS.map((name) => (
            <Table.Tr key={name}>
              <Table.Th scope="row">{t(`adminRuns.outcomes.counts.${name}`)}</Table.Th>
              <Table.Td>{stats[name]}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {stats.excluded_reviewers.length === 0 ? (
        <Text size="sm">{t('adminRuns.outcomes.noExcludedReviewers')}</Text>
      ) : (
        <Table withTableBorder captionSide="top" maw={560}>
          <Table.Caption>{t('adminRuns.outcomes.excludedCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('adminRuns.outcomes.assessor')}</Table.Th>
              <Table.Th scope="col">{t('adminRuns.outcomes.moderated')}</Table.Th>
              <Table.Th scope="col">{t('adminRuns.outcomes.approvalRate')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stats.excluded_reviewers.map((reviewer) => (
              <Table.Tr key={reviewer.assessor}>
                <Table.Td>{reviewer.assessor}</Table.Td>
                <Table.Td>{reviewer.moderated}</Table.Td>
                <Table.Td>{formatRate(reviewer.approval_rate)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const RATIOS = ['validity_threshold', 'acceptance_threshold'] as const;

/**
 * Review Outcomes (spec §2.17, §3, §5; G-003..G-009): the validity and acceptance thresholds (0 to 1, default 1), the
 * minimum sample (at least 10, default 10) and the dry run. A real run cannot be undone: the form is disabled after
 * it (review_outcomes_generated).
 */
export function ReviewOutcomesForm({ eventId, isGenerated }: { eventId: number; isGenerated: boolean }) {
  const { t } = useTranslation();
  const generate = useGenerateReviewOutcomes(eventId);
  const form = useForm<OutcomeParamsInput, unknown, OutcomeParams>({
    resolver: zodResolver(outcomeParams),
    mode: 'onChange',
    defaultValues: { event_id: eventId, ...OUTCOME_DEFAULTS, dry_run: true },
  });
  const flow = useAdminRun((params: OutcomeParams) => generate.mutateAsync(params), {
    success: 'adminRuns.outcomes.success',
    failed: 'adminRuns.outcomes.failed',
  });
  const errorOf = (name: (typeof RATIOS)[number] | 'minimum_sample', label: string) =>
    fieldError(form as unknown as UseFormReturn<OutcomeParamsInput>, name, label);
  const locked = isGenerated || generate.isPending;
  const sampleLabel = t('adminRuns.outcomes.minimum_sample');
  return (
    <AdminRunControls
      form={form}
      flow={flow}
      isPending={generate.isPending}
      disabled={isGenerated}
      labels={runLabels('adminRuns.outcomes')}
      renderResult={(stats: OutcomeStats) => <OutcomeStatsView stats={stats} />}
    >
      {RATIOS.map((name) => {
        const label = t(`adminRuns.outcomes.${name}`);
        return (
          <RunRatioField
            key={name}
            control={form.control}
            name={name}
            label={label}
            description={t(`adminRuns.outcomes.${name}Hint`)}
            error={errorOf(name, label)}
            disabled={locked}
          />
        );
      })}
      <RunNumberField
        control={form.control}
        name="minimum_sample"
        label={sampleLabel}
        description={t('adminRuns.outcomes.minimum_sampleHint')}
        min={10}
        error={errorOf('minimum_sample', sampleLabel)}
        disabled={locked}
      />
    </AdminRunControls>
  );
}
