import { Alert, Anchor, Button, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { unsubscribeStateQuery, useResubscribe, useUnsubscribe } from '../../../features/profile/api/notifications';
import { isApiError } from '../../../lib/api-error';
import { notifyError, notifySuccess } from '../../../lib/notify';

/**
 * `/unsubscribe?token=…` (issue 27): where a notification's unsubscribe link leads, no login needed. It asks first
 * (opening a link changes nothing: mail scanners open links too), then confirms and offers to undo.
 */
export default function Unsubscribe() {
  const { t } = useTranslation();
  const token = useSearchParams()[0].get('token') ?? '';
  const state = useQuery({ ...unsubscribeStateQuery(token), enabled: token !== '' });
  const unsubscribe = useUnsubscribe();
  const resubscribe = useResubscribe();
  const pending = unsubscribe.isPending || resubscribe.isPending;

  const change = (mutation: typeof unsubscribe, done: string) => async () => {
    try {
      await mutation.mutateAsync(token);
      notifySuccess(done);
    } catch (error) {
      notifyError(error, 'notify.unsubscribeFailed');
    }
  };

  let body;
  if (!token) body = <Text>{t('notifications.noToken')}</Text>;
  else if (state.isError)
    body = (
      <Alert color="red" title={t('notifications.unsubscribeTitle')}>
        {isApiError(state.error) && state.error.serverMessage ? state.error.serverMessage : t('notify.default')}
      </Alert>
    );
  else if (!state.data) body = <Loader size="sm" />;
  else {
    const what = t(`notifications.what.${state.data.kind}`);
    const justUndone = resubscribe.isSuccess && !state.data.unsubscribed;
    body = state.data.unsubscribed ? (
      <Stack>
        <Text>{t('notifications.unsubscribed', { what })}</Text>
        <Button w="fit-content" variant="light" loading={pending} onClick={change(resubscribe, 'notify.resubscribed')}>
          {t('notifications.undo')}
        </Button>
      </Stack>
    ) : (
      <Stack>
        <Text>{justUndone ? t('notifications.resubscribed', { what }) : t('notifications.unsubscribeAsk', { what })}</Text>
        <Button w="fit-content" loading={pending} onClick={change(unsubscribe, 'notify.unsubscribed')}>
          {justUndone ? t('notifications.unsubscribeAgain') : t('notifications.unsubscribeButton')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack maw={560} mx="auto">
      <PageHeading title={t('notifications.unsubscribeTitle')} />
      <Paper withBorder p="lg">
        <Stack>
          {body}
          <Anchor component={Link} to={paths.profile()} size="sm">
            {t('notifications.toProfile')}
          </Anchor>
        </Stack>
      </Paper>
    </Stack>
  );
}
