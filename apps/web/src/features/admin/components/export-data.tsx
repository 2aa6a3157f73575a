import { Button, Group, NumberInput, Radio, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages } from '@cr/contract/rules';
import { VOTE_EXPORT_DEFAULTS, voteExportConfig, type VoteExportConfig } from '@cr/contract/outcomes';
import { IconDownload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { fieldError } from '../../../components/form-field';
import { notifyError } from '../../../lib/notify';
import { downloadVoteExport } from '../api/closing-runs';
import { CsvDownloads, EXPORT_FAILED } from './csv-downloads';

/**
 * The contract's export_config, with the threshold required in the form (spec §5: required, at least 0, default
 * 25): the contract fills in 25 for a call without it, the form instead says a cleared field is required.
 */
const voteExportForm = voteExportConfig.extend({
  threshold: z
    .number({ error: (issue) => (issue.input === undefined ? messages.required : messages.integer) })
    .int({ error: messages.integer })
    .min(0, { error: messages.atLeast0 }),
});
type VoteExportInput = z.input<typeof voteExportForm>;

/**
 * The export for the vote system (spec §3, §5, §7; G-019..G-024): fund id (required, at least 0), fund name, the
 * events (this one by default), the voting power threshold in ADA (default 25), the chain vote options (default
 * 'blank,yes,no'), the chain vote type (private or public, default private) and the themes; the answer is saved as a
 * file.
 */
function VoteExportForm({ eventId, events }: { eventId: number; events: { row_id: number; name: string }[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const form = useForm<VoteExportInput, unknown, VoteExportConfig>({
    resolver: zodResolver(voteExportForm),
    mode: 'onChange',
    defaultValues: {
      fund_id: undefined,
      fund_name: '',
      events_id: [eventId],
      threshold: VOTE_EXPORT_DEFAULTS.threshold,
      chain_vote_options: VOTE_EXPORT_DEFAULTS.chain_vote_options,
      chain_vote_type: VOTE_EXPORT_DEFAULTS.chain_vote_type,
      themes: [],
    },
  });
  const errorOf = (name: keyof VoteExportInput, label: string) =>
    fieldError(form as unknown as UseFormReturn<VoteExportInput>, name, label);
  const onSubmit = form.handleSubmit(async (config) => {
    setBusy(true);
    try {
      await downloadVoteExport(config);
    } catch (error) {
      notifyError(error, EXPORT_FAILED);
    } finally {
      setBusy(false);
    }
  });
  const label = (name: string) => t(`adminRuns.export.vote.${name}`);
  const numberField = (name: 'fund_id' | 'threshold') => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <NumberInput
          label={label(name)}
          description={label(`${name}Hint`)}
          withAsterisk
          min={0}
          step={1}
          allowDecimal={false}
          value={field.value ?? ''}
          onChange={(next) => field.onChange(typeof next === 'number' ? next : next === '' ? undefined : Number(next))}
          onBlur={field.onBlur}
          error={errorOf(name, label(name))}
          disabled={busy}
        />
      )}
    />
  );
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId}>
        {t('adminRuns.export.vote.title')}
      </Title>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label={t('adminRuns.export.vote.title')}>
        <Stack gap="md" maw={560}>
          <Text size="sm" c="dimmed">
            {t('adminRuns.export.vote.intro')}
          </Text>
          {numberField('fund_id')}
          <TextInput
            label={label('fund_name')}
            withAsterisk
            {...form.register('fund_name')}
            error={errorOf('fund_name', label('fund_name'))}
            disabled={busy}
          />
          <Controller
            control={form.control}
            name="events_id"
            render={({ field }) => (
              <AppMultiSelect
                label={label('events_id')}
                description={label('events_idHint')}
                withAsterisk
                data={events.map((event) => ({ value: String(event.row_id), label: event.name }))}
                value={(field.value ?? []).map(String)}
                onChange={(values) => field.onChange(values.map(Number))}
                onBlur={field.onBlur}
                error={errorOf('events_id', label('events_id'))}
                disabled={busy}
              />
            )}
          />
          {numberField('threshold')}
          <TextInput
            label={label('chain_vote_options')}
            description={label('chain_vote_optionsHint')}
            {...form.register('chain_vote_options')}
            error={errorOf('chain_vote_options', label('chain_vote_options'))}
            disabled={busy}
          />
          <Controller
            control={form.control}
            name="chain_vote_type"
            render={({ field }) => (
              <Radio.Group
                label={label('chain_vote_type')}
                value={field.value ?? VOTE_EXPORT_DEFAULTS.chain_vote_type}
                onChange={field.onChange}
              >
                <Group gap="lg" mt="xs">
                  {(['private', 'public'] as const).map((type) => (
                    <Radio key={type} value={type} label={label(`types.${type}`)} disabled={busy} />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />
          <Controller
            control={form.control}
            name="themes"
            render={({ field }) => (
              <TagsInput
                label={label('themes')}
                description={label('themesHint')}
                value={field.value ?? []}
                onChange={field.onChange}
                onBlur={field.onBlur}
                clearable
                disabled={busy}
              />
            )}
          />
          <Group>
            <Button type="submit" leftSection={<IconDownload size={16} aria-hidden />} loading={busy} disabled={!form.formState.isValid}>
              {label('submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** Export Data (spec §2.17, §7 "Exports"): the CSV downloads and the export for the vote system. */
export function ExportData({ eventId, events }: { eventId: number; events: { row_id: number; name: string }[] }) {
  return (
    <Stack gap="xl">
      <CsvDownloads eventId={eventId} />
      <VoteExportForm key={eventId} eventId={eventId} events={events} />
    </Stack>
  );
}
