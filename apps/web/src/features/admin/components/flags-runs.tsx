import { Alert, Button, FileInput, Group, Stack, Table, Text, Title } from '@mantine/core';
import { AI_GENERATED_THRESHOLD_DEFAULT, SIMILARITY_THRESHOLD_DEFAULT, computeFlagsParams } from '@cr/contract/flags';
import { IconFileUpload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useComputeFlags, useImportFlags, type FlagRunResult } from '../api/moderation-runs';
import { readFlagsFile, type ReadFlags } from './flags-file';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { RunNumberFields, type RunNumberSpec } from './run-controls';

/** The thresholds of DOMAIN.md "Flags", in steps of 0.05; each has its default, so neither is marked required. */
const THRESHOLDS: RunNumberSpec<z.input<typeof computeFlagsParams>>[] = [
  { name: 'similarity_threshold', min: 0.5, max: 1, step: 0.05, decimalScale: 2, isRequired: false },
  { name: 'ai_generated_threshold', min: 0, max: 1, step: 0.05, decimalScale: 2, isRequired: false },
];
const TYPES = ['profanity', 'similarity', 'ai_generated'] as const;

/** How many reviews a flag run flagged, in all and per type. */
export function FlagRunStatsView({ stats }: { stats: FlagRunResult }) {
  const { t } = useTranslation();
  const rows: [string, number][] = [
    [t('adminRuns.flags.reviews'), stats.reviews],
    [t('adminRuns.flags.flagged'), stats.flagged],
    ...TYPES.map((type): [string, number] => [t(`adminRuns.flags.types.${type}`), stats.per_type[type]]),
  ];
  return (
    <Table withTableBorder variant="vertical" layout="fixed" captionSide="top" maw={480} data-testid="flag-stats">
      <Table.Caption>{t('adminRuns.flags.countsCaption')}</Table.Caption>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * "Compute flags" (issue 14 item 1; DOMAIN.md "Flags"): the similarity and AI-hint thresholds and the dry run. A dry
 * run shows how many reviews each type would flag; a real run, after confirmation, replaces the event's computed
 * flags. It may run again, as the flags follow the reviews.
 */
export function ComputeFlagsForm({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const run = useAdminRunForm({
    schema: computeFlagsParams,
    defaultValues: {
      event_id: eventId,
      similarity_threshold: SIMILARITY_THRESHOLD_DEFAULT,
      ai_generated_threshold: AI_GENERATED_THRESHOLD_DEFAULT,
      dry_run: true,
    },
    mutation: useComputeFlags(),
    labels: runLabels('adminRuns.flags', { formLabel: 'adminRuns.flags.title', resultTitle: 'adminRuns.flags.resultTitle' }),
  });

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        {t('adminRuns.flags.title')}
      </Title>
      <AdminRunControls run={run} renderResult={(stats: FlagRunResult) => <FlagRunStatsView stats={stats} />}>
        <RunNumberFields form={run.form} prefix="adminRuns.flags" fields={THRESHOLDS} disabled={run.isPending} />
      </AdminRunControls>
    </Stack>
  );
}

/**
 * Loads flags computed by an outside tool (issue 14 item 1): a JSON array of {review_id, flag_type, score,
 * related_reviews, related_criteria}, checked here before it travels and again by the server; it replaces the event's
 * flags of each type it holds.
 */
export function ImportFlagsForm({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const load = useImportFlags(eventId);
  const [upload, setUpload] = useState<{ file: File; read?: ReadFlags } | null>(null);

  async function choose(file: File | null) {
    if (!file) return setUpload(null);
    setUpload({ file });
    const read = await file.text().then(readFlagsFile, (): ReadFlags => ({ ok: false, error: 'notJson' }));
    setUpload({ file, read });
  }
  async function submit() {
    if (!upload?.read?.ok) return;
    try {
      await load.mutateAsync(upload.read.flags);
      notifySuccess('adminRuns.flags.importSuccess');
      setUpload(null);
    } catch (error) {
      notifyError(error, 'adminRuns.flags.importFailed');
    }
  }
  const read = upload?.read;
  return (
    <Stack gap="md" component="section" aria-labelledby={headingId} maw={560}>
      <Title order={3} size="h4" id={headingId}>
        {t('adminRuns.flags.importTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('adminRuns.flags.importIntro')}
      </Text>
      <FileInput
        label={t('adminRuns.flags.file')}
        description={t('adminRuns.flags.fileHint')}
        accept="application/json,.json"
        leftSection={<IconFileUpload size={16} aria-hidden />}
        clearable
        clearButtonProps={{ 'aria-label': t('adminRuns.import.clearFile') }}
        value={upload?.file ?? null}
        onChange={(file) => void choose(file)}
        error={read && !read.ok ? t(`adminRuns.flags.${read.error}`, { detail: read.detail ?? '' }) : undefined}
        disabled={load.isPending}
      />
      {read?.ok && (
        <Alert color="brand" variant="light">
          {t('adminRuns.flags.fileSummary', { count: read.flags.length })}
        </Alert>
      )}
      <Group>
        <Button onClick={() => void submit()} loading={load.isPending} disabled={!read?.ok}>
          {t('adminRuns.flags.importSubmit')}
        </Button>
      </Group>
    </Stack>
  );
}
