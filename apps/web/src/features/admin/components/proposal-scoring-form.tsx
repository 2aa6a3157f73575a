import { Alert, Anchor } from '@mantine/core';
import { SCORE_DEFAULTS, scoreParams, type ScoreParamsInput, type ScoreResult } from '@cr/contract/outcomes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useGenerateProposalScores } from '../api/closing-runs';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { ratioSpec, RunNumberFields, type RunNumberSpec } from './run-controls';
import { ScoreResultsTable } from './score-results-table';

const WEIGHTS: RunNumberSpec<ScoreParamsInput>[] = [
  ratioSpec('allocation_weights.allocated', 'allocated'),
  ratioSpec('allocation_weights.not_allocated', 'not_allocated'),
  ratioSpec('level_weights.level_0', 'level_0'),
  ratioSpec('level_weights.level_1', 'level_1'),
];

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
  const run = useAdminRunForm({
    schema: scoreParams,
    defaultValues: {
      event_id: eventId,
      allocation_weights: { ...SCORE_DEFAULTS.allocation_weights },
      level_weights: { ...SCORE_DEFAULTS.level_weights },
      dry_run: true,
    },
    mutation: useGenerateProposalScores(eventId),
    labels: runLabels('adminRuns.scoring'),
  });
  return (
    <AdminRunControls
      run={run}
      disabled={isGenerated}
      renderResult={(rows: ScoreResult) => <ScoreResultsTable rows={rows} />}
      before={
        isGenerated ? (
          // The scores publish the round's open data (issue 48): its public page, to announce with the round.
          <Anchor component={Link} to={paths['open-data'](eventId)} size="sm">
            {t('adminRuns.scoring.openData')}
          </Anchor>
        ) : (
          !outcomesGenerated && (
            <Alert color="yellow" title={t('adminRuns.scoring.outcomesFirstTitle')}>
              {t('adminRuns.scoring.outcomesFirst')}
            </Alert>
          )
        )
      }
    >
      <RunNumberFields form={run.form} prefix="adminRuns.scoring" fields={WEIGHTS} disabled={isGenerated || run.isPending} />
    </AdminRunControls>
  );
}
