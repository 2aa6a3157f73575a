import { Button, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { useVerifyEmail } from '../../../features/auth/api/accounts';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { loadUserInfo, useSession } from '../../../lib/session';

/** Only paths inside the app: an e-mailed link can't send the user elsewhere. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/profile';
}

/** Spec §2.9: already verified with a token, verified, token present, check your email. */
export default function EmailVerification() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const redirect = safeRedirect(params.get('redirect'));
  const alreadyVerified = useSession((state) => state.logged && state.userInfo?.catalyst_id.email_verified === true);
  const mutation = useVerifyEmail();
  const [verified, setVerified] = useState(false);

  /** Resolves false when the verification failed (spec §8). */
  const onVerify = async (): Promise<boolean> => {
    if (!token) return false;
    try {
      await mutation.mutateAsync(token);
      setVerified(true);
      notifySuccess('notify.emailVerified');
      if (useSession.getState().logged) await loadUserInfo().catch(() => null);
      return true;
    } catch (error) {
      notifyError(error, 'notify.verificationFailed');
      return false;
    }
  };

  let body;
  if (verified) {
    body = (
      <Stack>
        <Text>{t('verifyEmail.verified')}</Text>
        <Button w="fit-content" onClick={() => navigate(redirect)}>
          {t('verifyEmail.continue')}
        </Button>
      </Stack>
    );
  } else if (token && alreadyVerified) {
    body = (
      <Stack>
        <Text>{t('verifyEmail.alreadyVerified')}</Text>
        <Button w="fit-content" variant="light" onClick={onVerify} loading={mutation.isPending}>
          {t('verifyEmail.verify')}
        </Button>
      </Stack>
    );
  } else if (token) {
    body = (
      <Stack>
        <Text>{t('verifyEmail.tokenPresent')}</Text>
        <Button w="fit-content" onClick={onVerify} loading={mutation.isPending}>
          {t('verifyEmail.verify')}
        </Button>
      </Stack>
    );
  } else {
    body = <Text>{t('verifyEmail.checkEmail')}</Text>;
  }

  return (
    <Stack maw={560} mx="auto">
      <PageHeading title={t('verifyEmail.title')} />
      <Paper withBorder p="lg">
        {body}
      </Paper>
    </Stack>
  );
}
