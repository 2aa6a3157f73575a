import { Alert, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { OUTCOME_DEFAULTS, outcomeParams, type OutcomeParamsInput, type OutcomeStats } from '@cr/contract/outcomes';
import { useTranslation } from 'react-i18next';
import { useGenerateReviewOutcomes } from '../api/closing-runs';
import { coverageSummaryQuery } from '../api/coverage';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { ratioSpec, RunNumberFields, type RunNumberSpec } from './run-controls';
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

const PARAMETERS: RunNumberSpec<OutcomeParamsInput>[] = [
  ratioSpec('validity_threshold'),
  ratioSpec('acceptance_threshold'),
  { name: 'minimum_sample', min: 10 },
];

/**
 * Review Outcomes (spec §2.17, §3, §5; G-003..G-009): the validity and acceptance thresholds (0 to 1, default 1), the
 * minimum sample (at least 10, default 10) and the dry run. A real run cannot be undone: the form is disabled after
 * it (review_outcomes_generated).
 */
export function ReviewOutcomesForm({ eventId, isGenerated }: { eventId: number; isGenerated: boolean }) {
  const { t } = useTranslation();
  // Issue 28 item 1: the outcomes warn (never block) while reviews lack the moderations their allocation asked for.
  const coverage = useQuery({ ...coverageSummaryQuery(eventId), enabled: !isGenerated });
  const short = coverage.data?.short_reviews ?? 0;
  const coverageWarning =
    short > 0 ? (
      <Text size="sm" fw={600} mt="xs" role="note">
        {t('adminRuns.outcomes.coverageWarning', { count: short })}
      </Text>
    ) : null;
  const run = useAdminRunForm({
    schema: outcomeParams,
    defaultValues: { event_id: eventId, ...OUTCOME_DEFAULTS, dry_run: true },
    mutation: useGenerateReviewOutcomes(eventId),
    labels: runLabels('adminRuns.outcomes'),
  });
  return (
    <AdminRunControls
      run={run}
      disabled={isGenerated}
      confirmNotice={coverageWarning}
      renderResult={(stats: OutcomeStats) => (
        <Stack gap="sm">
          {coverageWarning && (
            <Alert color="yellow" variant="light">
              {coverageWarning}
            </Alert>
          )}
          <OutcomeStatsView stats={stats} />
        </Stack>
      )}
    >
      <RunNumberFields form={run.form} prefix="adminRuns.outcomes" fields={PARAMETERS} disabled={isGenerated || run.isPending} />
    </AdminRunControls>
  );
}
