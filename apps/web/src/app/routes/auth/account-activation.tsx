import { AccountStatus } from '@cr/contract/plain';
import { Button, Modal, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { useActivate } from '../../../features/auth/api/accounts';
import { isApiError } from '../../../lib/api-error';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSession } from '../../../lib/session';

/** Spec §2.8. */
export default function AccountActivation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const active = useSession((state) => state.logged && state.userInfo?.catalyst_id.status === AccountStatus.active);
  const mutation = useActivate();
  const [expired, setExpired] = useState<string | null>(null);

  const onActivate = async () => {
    if (!token) return;
    try {
      await mutation.mutateAsync(token);
      notifySuccess('notify.activated');
      navigate(paths.login());
    } catch (error) {
      // A 400 is shown in the modal, not as a toast (spec §8).
      if (isApiError(error) && error.status === 400) setExpired(error.serverMessage ?? t('activation.expired'));
      else notifyError(error, 'notify.activationFailed');
    }
  };

  return (
    <Stack maw={560} mx="auto">
      <PageHeading title={t('activation.title')} />
      <Paper withBorder p="lg">
        {active ? (
          <Stack>
            <Text>{t('activation.alreadyActive')}</Text>
            <Button w="fit-content" onClick={() => navigate(paths['allocated-reviews']())}>
              {t('activation.goToAllocatedReviews')}
            </Button>
          </Stack>
        ) : token ? (
          <Stack>
            <Text>{t('activation.withToken')}</Text>
            <Button w="fit-content" onClick={onActivate} loading={mutation.isPending}>
              {t('activation.activate')}
            </Button>
          </Stack>
        ) : (
          <Text>{t('activation.checkEmail')}</Text>
        )}
      </Paper>
      <Modal opened={expired !== null} onClose={() => setExpired(null)} title={t('activation.title')} centered>
        <Text data-testid="activation-error">{expired}</Text>
        <Button mt="md" onClick={() => navigate(paths.register())}>
          {t('activation.toRegister')}
        </Button>
      </Modal>
    </Stack>
  );
}
