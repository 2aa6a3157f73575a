import { isCatalystId } from '@cr/contract/plain';
import { Anchor, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { fieldError } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { useRequestPasswordReset } from '../../../features/auth/api/accounts';
import type { LoginFormValues } from '../../../features/auth/schemas';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { login } from '../../../lib/session';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

/** Spec §2.6. */
export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resetRequest = useRequestPasswordReset();
  const form = useForm<LoginFormValues>({
    resolver: lazyZodResolver(() => import('../../../features/auth/schemas').then((module) => module.loginFormSchema)),
    mode: 'onChange',
    defaultValues: { catalyst_id: '', password: '' },
  });
  const [catalystId, password] = useWatch({ control: form.control, name: ['catalyst_id', 'password'] });
  const { isSubmitting } = form.formState;
  // Issue 45 item 15: a login the server sheds for load is asked again by itself; meanwhile the form says it waits.
  const [busyFor, setBusyFor] = useState<number | null>(null);
  const leaving = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const onSubmit = form.handleSubmit(async (values) => {
    const signal = leaving.current?.signal;
    try {
      await login(values.catalyst_id.trim(), values.password, { onWait: setBusyFor, signal });
      notifySuccess('notify.loggedIn');
      navigate(paths.profile());
    } catch (error) {
      // Left the page while waiting: nothing to tell.
      if (signal?.aborted) return;
      notifyError(error, 'notify.loginFailed');
    } finally {
      if (!signal?.aborted) setBusyFor(null);
    }
  });

  const onForgot = async () => {
    const valid = await form.trigger('catalyst_id');
    if (!valid || !isCatalystId(catalystId)) return;
    try {
      await resetRequest.mutateAsync(catalystId.trim());
      notifySuccess('notify.resetLinkSent');
      navigate(paths['reset-requested']());
    } catch (error) {
      notifyError(error, 'notify.resetRequestFailed');
    }
  };

  return (
    <Stack maw={460} mx="auto">
      <PageHeading title={t('login.title')}>{t('login.intro')}</PageHeading>
      <Paper withBorder p="lg">
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <TextInput
              label={t('fields.catalyst_id')}
              placeholder={t('login.catalystIdExample')}
              autoComplete="username"
              withAsterisk
              {...form.register('catalyst_id')}
              error={fieldError(form, 'catalyst_id', t('fields.catalyst_id'))}
            />
            <PasswordInput
              label={t('fields.password')}
              autoComplete="current-password"
              withAsterisk
              {...form.register('password')}
              error={fieldError(form, 'password', t('fields.password'))}
            />
            <Button type="submit" disabled={!catalystId || !password || isSubmitting} loading={isSubmitting}>
              {t('login.submit')}
            </Button>
            {busyFor !== null && (
              <Text size="sm" c="dimmed" role="status" aria-live="polite">
                {t('login.busyRetrying', { seconds: busyFor })}
              </Text>
            )}
            <Group justify="space-between" gap="xs">
              <Button variant="subtle" size="compact-sm" onClick={onForgot} loading={resetRequest.isPending} title={t('login.forgotHint')}>
                {t('login.forgot')}
              </Button>
              <Text size="sm">
                {t('login.noAccount')}{' '}
                <Anchor component={Link} to={paths.register()}>
                  {t('login.register')}
                </Anchor>
              </Text>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
