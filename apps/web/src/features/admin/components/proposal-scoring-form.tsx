import { Alert, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  SCORE_DEFAULTS,
  scoreParams,
  type ProposalScoreRow,
  type ScoreParams,
  type ScoreParamsInput,
  type ScoreResult,
} from '@cr/contract/outcomes';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { useGenerateProposalScores } from '../api/closing-runs';
import { AdminRunControls, runLabels, useAdminRun } from './admin-run-controls';
import { RunRatioField } from './run-controls';
import {
  filterScoreRows,
  formatScore,
  isScoreColumn,
  nextSort,
  SCORE_COLUMNS,
  scoreCell,
  sortScoreRows,
  type ScoreColumn,
  type ScoreSort,
} from './score-table';

/**
 * The scoring result (spec §3 "Score parameters", G-015): every field of every proposal, sortable by any column (a
 * click on its header; again turns it round) and filterable by title.
 */
export function ScoreResultsTable({ rows }: { rows: ScoreResult }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<ScoreSort>({ column: 'overall', direction: 'descending' });
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => sortScoreRows(filterScoreRows(rows, filter), sort), [rows, filter, sort]);
  const cell = (row: ProposalScoreRow, column: ScoreColumn) => {
    const value = scoreCell(row, column);
    return isScoreColumn(column) ? formatScore(value as number | null) : value;
  };
  return (
    <Stack gap="sm" data-testid="score-results">
      <TextInput
        label={t('adminRuns.scoring.filter')}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        maw={360}
      />
      <Text size="sm" role="status">
        {t('adminRuns.scoring.shown', { n: shown.length, total: rows.length })}
      </Text>
      <Table.ScrollContainer minWidth={1100}>
        <Table withTableBorder striped captionSide="top" fz="sm">
          <Table.Caption>{t('adminRuns.scoring.tableCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {SCORE_COLUMNS.map((column) => {
                const active = sort.column === column;
                const Icon = !active ? IconArrowsSort : sort.direction === 'ascending' ? IconArrowUp : IconArrowDown;
                return (
                  <Table.Th key={column} scope="col" aria-sort={active ? sort.direction : undefined}>
                    <UnstyledButton
                      onClick={() => setSort(nextSort(sort, column))}
                      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, fontSize: 'inherit' }}
                    >
                      {t(`adminRuns.scoring.columns.${column}`)}
                      <Icon size={14} aria-hidden />
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={SCORE_COLUMNS.length}>{t('errors.noItems')}</Table.Td>
              </Table.Tr>
            ) : (
              shown.map((row) => (
                <Table.Tr key={row.proposal.row_id}>
                  {SCORE_COLUMNS.map((column) =>
                    column === 'title' ? (
                      <Table.Th key={column} scope="row" fw={400}>
                        {row.proposal.title}
                      </Table.Th>
                    ) : (
                      <Table.Td key={column}>{cell(row, column)}</Table.Td>
                    ),
                  )}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

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
        <>
          <Text size="sm" c="dimmed">
            {t('adminRuns.scoring.intro')}
          </Text>
          {isGenerated && (
            <Alert color="brand" title={t('adminRuns.scoring.generatedTitle')} data-testid="scores-generated">
              {t('adminRuns.scoring.generated')}
            </Alert>
          )}
          {!isGenerated && !outcomesGenerated && (
            <Alert color="yellow" title={t('adminRuns.scoring.outcomesFirstTitle')} data-testid="outcomes-first">
              {t('adminRuns.scoring.outcomesFirst')}
            </Alert>
          )}
        </>
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
