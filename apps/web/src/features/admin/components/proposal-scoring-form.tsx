import { Alert } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { SCORE_DEFAULTS, scoreParams, type ScoreParams, type ScoreParamsInput, type ScoreResult } from '@cr/contract/outcomes';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { useGenerateProposalScores } from '../api/closing-runs';
import { AdminRunControls, runLabels, useAdminRun } from './admin-run-controls';
import { RunRatioField } from './run-controls';
import { ScoreResultsTable } from './score-results-table';

const WEIGHTS = [
  { name: 'allocation_weights.allocated', weight: 'allocated' },
  { name: 'allocation_weights.not_allocated', weight: 'not_allocated' },
  { name: 'level_weights.level_0', weight: 'level_0' },
  { name: 'level_weights.level_1', weight: 'level_1' },
] as const;

/**
 * Proposal Scoring (spec §2.17, §3, §5; G-010..G-018): the allocation weights (allocated 0.8, not allocated 0.2) and
 * level weights (1 and 1), each from 0 to 1 in steps of 0.1, and the dry run. Scores are computed over included
 * reviews, so they need the review outcomes first (the server answers 409 otherwise). A real run cannot be undone:
 * the form is disabled after it (proposal_scores_generated).
 */
export function ProposalScoringForm({
  eventId,
  isGenerated,
  outcomesGenerated,
}: {
  eventId: number;
  isGenerated: boolean;
  outcomesGenerated: boolean;
}) {
  const { t } = useTranslation();
  const generate = useGenerateProposalScores(eventId);
  const form = useForm<ScoreParamsInput, unknown, ScoreParams>({
    resolver: zodResolver(scoreParams),
    mode: 'onChange',
    defaultValues: {
      event_id: eventId,
      allocation_weights: { ...SCORE_DEFAULTS.allocation_weights },
      level_weights: { ...SCORE_DEFAULTS.level_weights },
      dry_run: true,
    },
  });
  const flow = useAdminRun((params: ScoreParams) => generate.mutateAsync(params), {
    success: 'adminRuns.scoring.success',
    failed: 'adminRuns.scoring.failed',
  });
  const locked = isGenerated || generate.isPending;
  return (
    <AdminRunControls
      form={form}
      flow={flow}
      isPending={generate.isPending}
      disabled={isGenerated}
      labels={runLabels('adminRuns.scoring')}
      renderResult={(rows: ScoreResult) => <ScoreResultsTable rows={rows} />}
      before={
        !isGenerated &&
        !outcomesGenerated && (
          <Alert color="yellow" title={t('adminRuns.scoring.outcomesFirstTitle')}>
            {t('adminRuns.scoring.outcomesFirst')}
          </Alert>
        )
      }
    >
      {WEIGHTS.map(({ name, weight }) => {
        const label = t(`adminRuns.scoring.${weight}`);
        return (
          <RunRatioField
            key={name}
            control={form.control}
            name={name}
            label={label}
            description={t(`adminRuns.scoring.${weight}Hint`)}
            error={fieldError(form as unknown as UseFormReturn<ScoreParamsInput>, name, label)}
            disabled={locked}
          />
        );
      })}
    </AdminRunControls>
  );
}
