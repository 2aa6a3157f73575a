import { Alert, Anchor, Button, Checkbox, Grid, List, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { fieldError } from '../../../components/form-field';
import { paths } from '../../../config/paths';
import { useRegister } from '../../../features/auth/api/accounts';
import type { RegisterFormValues } from '../../../features/auth/schemas';
import { isApiError } from '../../../lib/api-error';
import { notifySuccess } from '../../../lib/notify';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

/** Spec §2.7: a form and an information panel; failures in a modal titled with the verify-email header. */
export default function Register() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mutation = useRegister();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<RegisterFormValues>({
    resolver: lazyZodResolver(() => import('../../../features/auth/schemas').then((module) => module.registerFormSchema)),
    mode: 'onChange',
    defaultValues: {
      catalyst_id: '',
      email: '',
      password: '',
      password_confirmation: '',
      privacy_policy: false as never,
      terms_and_conditions: false as never,
      budget_approval: false as never,
    },
  });
  const error = (name: keyof RegisterFormValues) => fieldError(form, name, t(`fields.${name}`));

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync({
        catalyst_id: values.catalyst_id.trim(),
        email: values.email.trim(),
        password: values.password,
        password_confirmation: values.password_confirmation,
        extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
      });
      notifySuccess('notify.registered');
      navigate(paths['account-activation']());
    } catch (caught) {
      setFailure(isApiError(caught) && caught.serverMessage ? caught.serverMessage : t('notify.default'));
    }
  });

  return (
    <>
      <PageHeading title={t('register.title')} />
      <Grid gutter="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="lg">
            <form onSubmit={onSubmit} noValidate>
              <Stack>
                <TextInput
                  label={t('fields.catalyst_id')}
                  placeholder={t('login.catalystIdExample')}
                  autoComplete="username"
                  withAsterisk
                  {...form.register('catalyst_id')}
                  error={error('catalyst_id')}
                />
                <TextInput
                  label={t('fields.email')}
                  type="email"
                  autoComplete="email"
                  withAsterisk
                  {...form.register('email')}
                  error={error('email')}
                />
                <PasswordInput
                  label={t('fields.password')}
                  autoComplete="new-password"
                  withAsterisk
                  {...form.register('password')}
                  error={error('password')}
                />
                <PasswordInput
                  label={t('fields.password_confirmation')}
                  autoComplete="new-password"
                  withAsterisk
                  {...form.register('password_confirmation', { deps: ['password'] })}
                  error={error('password_confirmation')}
                />
                <Checkbox label={t('register.acceptPrivacy')} {...form.register('privacy_policy')} error={error('privacy_policy')} />
                <Checkbox
                  label={t('register.acceptTerms')}
                  {...form.register('terms_and_conditions')}
                  error={error('terms_and_conditions')}
                />
                <Checkbox label={t('register.acceptBudget')} {...form.register('budget_approval')} error={error('budget_approval')} />
                <Alert color="blue" variant="light">
                  {t('register.verifyNote')}
                </Alert>
                <Button type="submit" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending}>
                  {t('register.submit')}
                </Button>
                <Text size="sm">
                  {t('register.haveAccount')}{' '}
                  <Anchor component={Link} to={paths.login()}>
                    {t('register.login')}
                  </Anchor>
                </Text>
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="lg" bg="gray.0" component="aside" aria-labelledby="register-info">
            <Title order={2} size="h4" id="register-info" mb="sm">
              {t('register.infoTitle')}
            </Title>
            <List spacing="sm" size="sm">
              <List.Item>{t('register.info1')}</List.Item>
              <List.Item>{t('register.info2')}</List.Item>
              <List.Item>{t('register.info3')}</List.Item>
            </List>
          </Paper>
        </Grid.Col>
      </Grid>
      <Modal opened={failure !== null} onClose={() => setFailure(null)} title={t('verifyEmail.title')} centered>
        {/* Spec §8: 'Registration failed' is passed back here and shown in this modal, above the server's message. */}
        <Text fw={600} mb="xs" data-testid="register-failed">
          {t('notify.registrationFailed')}
        </Text>
        <Text style={{ whiteSpace: 'pre-line' }} data-testid="register-error">
          {failure}
        </Text>
        <Button mt="md" onClick={() => setFailure(null)}>
          {t('common.close')}
        </Button>
      </Modal>
    </>
  );
}
