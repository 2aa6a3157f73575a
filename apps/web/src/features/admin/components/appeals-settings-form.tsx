import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AppealsConfig } from '@cr/contract/appeals';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../../components/form-switch';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { RunNumberFields, type RunNumberSpec } from './run-controls';
import { appealsConfigQuery, useSaveAppealsConfig } from '../api/appeal-runs';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

const FIELDS: RunNumberSpec<AppealsConfig>[] = [
  { name: 'window_days', min: 1, max: 90 },
  { name: 'decisions_needed', min: 1, max: 15, step: 2 },
];

function Form({ eventId, value }: { eventId: number; value: AppealsConfig }) {
  const { t } = useTranslation();
  const save = useSaveAppealsConfig(eventId);
  const form = useForm<AppealsConfig>({
    resolver: lazyZodResolver(() => import('@cr/contract/appeals').then((module) => module.appealsConfig)),
    mode: 'onChange',
    defaultValues: value,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      form.reset(values);
      notifySuccess('appeals.settings.saved');
    } catch (error) {
      notifyError(error, 'appeals.settings.saveFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('appeals.settings.title')}>
      <Stack gap="sm" maw={560}>
        <Title order={3} size="h4">
          {t('appeals.settings.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('appeals.settings.hint')}
        </Text>
        <FormSwitch control={form.control} name="appeals_enabled" label={t('appeals.settings.appeals_enabled')} />
        <RunNumberFields form={form} prefix="appeals.settings" fields={FIELDS} />
        <Button type="submit" w="fit-content" loading={save.isPending} disabled={!form.formState.isValid}>
          {t('appeals.settings.save')}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * Review Outcomes' appeal settings (issue 28 item 2): off for a new event; when on, a window of 7 days from the
 * outcomes run (it ends at the latest when proposal scores run) and 3 decisions per appeal (an odd number).
 */
export function AppealsSettings({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery({ ...appealsConfigQuery(eventId), retry: false });
  if (isError) return <Alert color="red">{t('appeals.settings.fetchFailed')}</Alert>;
  if (!data) return <Loader size="sm" />;
  return <Form key={JSON.stringify(data)} eventId={eventId} value={data} />;
}
