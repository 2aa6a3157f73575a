import { Alert, Anchor, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { fieldError } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { useResetPassword } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import type { ResetFormValues } from '../../../features/auth/schemas';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isForcedReset, useSession } from '../../../lib/session';
import { NewPasswordFields } from '../../../features/auth/components/new-password-fields';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

function TokenResetForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mutation = useResetPassword();
  const form = useForm<ResetFormValues>({
    resolver: lazyZodResolver(() => import('../../../features/auth/schemas').then((module) => module.resetFormSchema)),
    mode: 'onChange',
    defaultValues: { catalyst_id: '', password: '', password_confirmation: '', confirmation_token: token },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync({ ...values, catalyst_id: values.catalyst_id.trim() });
      notifySuccess('notify.passwordUpdated');
      navigate(paths.login());
    } catch (error) {
      notifyError(error, 'notify.resetFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {/* The token travels hidden, never as a visible field (spec §2.10). */}
        <input type="hidden" {...form.register('confirmation_token')} />
        <TextInput
          label={t('fields.catalyst_id')}
          autoComplete="username"
          withAsterisk
          {...form.register('catalyst_id')}
          error={fieldError(form, 'catalyst_id', t('fields.catalyst_id'))}
        />
        <NewPasswordFields form={form} />
        <Button type="submit" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending}>
          {t('reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** Spec §2.10: with a token, the reset form; signed in with a forced reset pending, the change form. */
export default function ResetPassword() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const forced = useSession(isForcedReset);
  let body;
  if (token) body = <TokenResetForm token={token} />;
  else if (forced) {
    body = (
      <Stack>
        <Alert color="orange">{t('reset.forcedNotice')}</Alert>
        <ChangePasswordForm onDone={() => navigate(paths.profile())} />
      </Stack>
    );
  } else {
    body = (
      <Stack>
        <Text>{t('reset.noToken')}</Text>
        <Anchor component={Link} to={paths.login()}>
          {t('reset.requestAgain')}
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack maw={520} mx="auto">
      <PageHeading title={token ? t('reset.title') : t('reset.changeTitle')} />
      <Paper withBorder p="lg">
        {body}
      </Paper>
    </Stack>
  );
}
