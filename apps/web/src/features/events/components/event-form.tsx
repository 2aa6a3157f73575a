import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { EventPublic } from '@cr/contract/events';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDateTime } from '../../../components/form-date-time';
import { FormSwitch } from '../../../components/form-switch';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveEvent } from '../api/events';
import { eventFormSchema, fromLocalInput, toLocalInput, type EventFormValues } from '../schemas';

/** Creates an event (active off by default) or edits one (spec §2.17 Events tab, §5 Event form). */
export function EventForm({ event, onDone }: { event?: EventPublic; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveEvent();
  const form = useForm<EventFormValues>({
    resolver: zodResolver(eventFormSchema),
    mode: 'onChange',
    defaultValues: {
      name: event?.name ?? '',
      description: event?.description ?? '',
      active: event?.active ?? false,
      start_time: toLocalInput(event?.start_time),
      end_time: toLocalInput(event?.end_time),
    },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: event?.row_id,
        input: { ...values, start_time: fromLocalInput(values.start_time), end_time: fromLocalInput(values.end_time) },
      });
      notifySuccess('notify.eventSaved');
      onDone();
    } catch (error) {
      notifyError(error, 'notify.eventSaveFailed');
    }
  });
  const label = (name: keyof EventFormValues) => t(`fields.${name}`);
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={label('name')}
          withAsterisk
          data-autofocus
          {...form.register('name')}
          error={fieldError(form, 'name', label('name'))}
        />
        <Textarea
          label={label('description')}
          withAsterisk
          autosize
          minRows={3}
          {...form.register('description')}
          error={fieldError(form, 'description', label('description'))}
        />
        <Group grow align="flex-start">
          <FormDateTime
            control={form.control}
            name="start_time"
            rules={{ deps: ['end_time'] }}
            label={label('start_time')}
            error={fieldError(form, 'start_time', label('start_time'))}
          />
          <FormDateTime
            control={form.control}
            name="end_time"
            label={label('end_time')}
            error={fieldError(form, 'end_time', label('end_time'))}
          />
        </Group>
        <FormSwitch control={form.control} name="active" label={label('active')} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('admin.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isValid}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
