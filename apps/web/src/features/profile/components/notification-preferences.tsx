import { NOTIFICATION_KINDS } from '@cr/contract/plain';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { NotificationPreferences } from '@cr/contract/notifications';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormSwitch } from '../../../components/form-switch';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { notificationPreferencesQuery, useSaveNotificationPreferences } from '../api/notifications';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

function PreferencesForm({ value }: { value: NotificationPreferences }) {
  const { t } = useTranslation();
  const save = useSaveNotificationPreferences();
  const form = useForm<NotificationPreferences>({
    resolver: lazyZodResolver(() => import('@cr/contract/notifications').then((module) => module.notificationPreferences)),
    defaultValues: value,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      form.reset(await save.mutateAsync(values));
      notifySuccess('notify.preferencesSaved');
    } catch (error) {
      notifyError(error, 'notify.preferencesSaveFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={560}>
        <Text size="sm" c="dimmed">
          {t('notifications.hint')}
        </Text>
        {NOTIFICATION_KINDS.map((kind) => (
          <FormSwitch
            key={kind}
            control={form.control}
            name={kind}
            label={t(`notifications.kinds.${kind}.label`)}
            description={t(`notifications.kinds.${kind}.description`)}
          />
        ))}
        <Button type="submit" w="fit-content" loading={save.isPending} disabled={!form.formState.isDirty}>
          {t('notifications.save')}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * The profile's notifications section (issue 27): each kind of notification on or off. Account mails (activation,
 * e-mail verification, password reset) are not listed: they cannot be turned off.
 */
export function NotificationPreferencesSection() {
  const { t } = useTranslation();
  const { data, isError } = useQuery(notificationPreferencesQuery);
  if (isError) return <Alert color="red">{t('errors.fetchNotificationPreferences')}</Alert>;
  if (!data) return <Loader size="sm" />;
  return <PreferencesForm key={JSON.stringify(data)} value={data} />;
}
