import { Alert, Button, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { remindersConfig, type RemindersConfig } from '@cr/contract/notifications';
import { messages } from '@cr/contract/rules';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { fieldError } from '../../../components/form-field';
import { FormSwitch } from '../../../components/form-switch';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { remindersConfigQuery, useSaveReminders } from '../api/reminders';

interface FormValues {
  review_reminders_enabled: boolean;
  moderation_reminders_enabled: boolean;
  /** The hours as typed: numbers separated by commas. */
  hours_before: string;
}

/** "72, 24" → [72, 24]; a part that is not a whole number → NaN (refused by the contract's rule). */
export const hoursOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));

/** The contract's rules for the hours (remindersConfig), on the typed text. */
const formSchema = z
  .object({ review_reminders_enabled: z.boolean(), moderation_reminders_enabled: z.boolean(), hours_before: z.string() })
  .superRefine((values, ctx) => {
    const hours = hoursOf(values.hours_before);
    if (hours.some(Number.isNaN)) {
      ctx.addIssue({ code: 'custom', message: messages.integer, path: ['hours_before'] });
      return;
    }
    const result = remindersConfig.shape.hours_before.safeParse(hours);
    if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]!.message, path: ['hours_before'] });
  });

function Form({ eventId, value }: { eventId: number; value: RemindersConfig }) {
  const { t } = useTranslation();
  const save = useSaveReminders(eventId);
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    mode: 'onChange',
    defaultValues: { ...value, hours_before: value.hours_before.join(', ') },
  });
  const label = (name: keyof FormValues) => t(`notifications.reminders.${name}`);
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ ...values, hours_before: hoursOf(values.hours_before) });
      form.reset(values);
      notifySuccess('notify.remindersSaved');
    } catch (error) {
      notifyError(error, 'notify.remindersSaveFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('notifications.reminders.title')}>
      <Stack gap="sm" maw={560}>
        <Title order={3} size="h4">
          {t('notifications.reminders.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('notifications.reminders.hint')}
        </Text>
        <FormSwitch control={form.control} name="review_reminders_enabled" label={label('review_reminders_enabled')} />
        <FormSwitch control={form.control} name="moderation_reminders_enabled" label={label('moderation_reminders_enabled')} />
        <TextInput
          label={label('hours_before')}
          description={t('notifications.reminders.hoursHint')}
          inputMode="numeric"
          {...form.register('hours_before')}
          error={fieldError(form, 'hours_before', label('hours_before'))}
        />
        <Button type="submit" w="fit-content" loading={save.isPending} disabled={!form.formState.isValid}>
          {t('notifications.reminders.save')}
        </Button>
      </Stack>
    </form>
  );
}

/** General Configuration's deadline reminders (issue 27): off for a new event, 72 and 24 hours before by default. */
export function RemindersSection({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery({ ...remindersConfigQuery(eventId), retry: false });
  if (isError) return <Alert color="red">{t('errors.fetchReminders')}</Alert>;
  if (!data) return <Loader size="sm" />;
  return <Form key={JSON.stringify(data)} eventId={eventId} value={data} />;
}
