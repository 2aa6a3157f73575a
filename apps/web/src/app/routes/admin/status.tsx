import { ActionIcon, Button, Card, Group, Select, Stack, Text, TextInput, Textarea, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { SEVERITIES, type StatusMessage } from '@cr/contract/events';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../../components/form-switch';
import { fieldError } from '../../../components/form-field';
import { statusQuery, useSaveStatus } from '../../../features/events/api/events';
import type { StatusFormValues } from '../../../features/events/schemas';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { sanitizeHtml } from '../../../lib/sanitize';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

const toForm = (messages: StatusMessage[]): StatusFormValues => ({
  messages: messages.map((message) => ({
    row_id: message.row_id,
    message: message.message,
    severity: message.severity,
    is_active: message.is_active,
    action_text: message.action_text ?? '',
    action_url: message.action_url ?? '',
  })),
});

/** The Status tab (spec §2.17): the list of status messages, each with severity, active switch and optional action. */
export default function AdminStatus() {
  const { t } = useTranslation();
  const { data, isError, error } = useQuery(statusQuery);
  const save = useSaveStatus();
  const queryClient = useQueryClient();
  const form = useForm<StatusFormValues>({
    resolver: lazyZodResolver(() => import('../../../features/events/schemas').then((module) => module.statusFormSchema)),
    mode: 'onChange',
    defaultValues: { messages: [] },
  });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'messages' });
  void form.formState.isDirty; // read while rendering, so react-hook-form keeps it up to date for the effect below
  // The saved list fills the form when it loads, and again when it changes (after a save, say) unless the admin is
  // editing: a refetch must never erase a message being written.
  useEffect(() => {
    if (data && !form.formState.isDirty) form.reset(toForm(data));
  }, [data, form]);
  useEffect(() => {
    if (isError) notifyError(error, 'errors.fetchStatus');
  }, [isError, error]);

  const onSubmit = form.handleSubmit(async (values) => {
    // Only messages with text after trimming are sent (spec §5).
    const messages = values.messages
      .filter((message) => message.message.trim() !== '')
      .map((message) => ({
        ...message,
        message: message.message.trim(),
        action_text: message.action_text.trim() || null,
        action_url: message.action_url.trim() || null,
      }));
    try {
      await save.mutateAsync(messages);
      // The mutation refetched the list (with the new messages' ids) while the form was still being edited: it fills
      // the form now, which is no longer edited.
      const saved = queryClient.getQueryData(statusQuery.queryKey);
      form.reset(saved ? toForm(saved) : values);
      notifySuccess('notify.statusSaved');
    } catch (failure) {
      notifyError(failure, 'notify.statusSaveFailed');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('status.formTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('status.formHint')}
          </Text>
        </div>
        {data && fields.length === 0 && <Text c="dimmed">{t('status.empty')}</Text>}
        {fields.map((field, index) => {
          const name = <K extends keyof StatusFormValues['messages'][number]>(key: K) => `messages.${index}.${key}` as const;
          const label = (key: string) => t(`fields.${key}`);
          const html = form.watch(name('message'));
          return (
            <Card
              key={field.id}
              withBorder
              padding="md"
              component="fieldset"
              aria-label={t('status.messageN', { n: index + 1 })}
              data-testid="status-message-form"
            >
              <Stack gap="sm">
                <Group justify="space-between">
                  <Text fw={600}>{t('status.messageN', { n: index + 1 })}</Text>
                  <Tooltip label={t('status.remove')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={() => remove(index)}
                      aria-label={`${t('status.remove')} (${index + 1})`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <Textarea
                  label={label('message')}
                  withAsterisk
                  autosize
                  minRows={2}
                  {...form.register(name('message'))}
                  error={fieldError(form, name('message'), label('message'))}
                />
                {html.trim() && (
                  <Text size="sm" c="dimmed" component="div">
                    {t('status.preview')}: <span dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
                  </Text>
                )}
                <Group grow align="flex-start">
                  <Controller
                    control={form.control}
                    name={name('severity')}
                    render={({ field: control }) => (
                      <Select
                        label={label('severity')}
                        withAsterisk
                        allowDeselect={false}
                        data={SEVERITIES.map((value) => ({ value, label: t(`status.severities.${value}`) }))}
                        value={control.value}
                        onChange={(value) => control.onChange(value ?? 'info')}
                      />
                    )}
                  />
                  <TextInput
                    label={label('action_text')}
                    {...form.register(name('action_text'))}
                    error={fieldError(form, name('action_text'), label('action_text'))}
                  />
                  <TextInput
                    label={label('action_url')}
                    placeholder={t('status.urlExample')}
                    {...form.register(name('action_url'))}
                    error={fieldError(form, name('action_url'), label('action_url'))}
                  />
                </Group>
                <FormSwitch control={form.control} name={name('is_active')} label={label('is_active')} />
              </Stack>
            </Card>
          );
        })}
        <Group>
          {/* A message added before the saved list loaded would be replaced by it. */}
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            disabled={!data}
            onClick={() => append({ message: '', severity: 'info', is_active: true, action_text: '', action_url: '' })}
          >
            {t('status.add')}
          </Button>
          {/* Saving replaces the whole list: never before the saved list was loaded, or a failed load would erase it. */}
          <Button type="submit" loading={save.isPending} disabled={!data || !form.formState.isValid}>
            {t('status.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
