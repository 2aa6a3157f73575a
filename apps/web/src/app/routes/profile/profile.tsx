import { Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { PageHeading } from '../../../components/page-heading';
import { ProfileView, Section } from '../../../features/profile/components/profile-view';
import { useChangeEmail } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import { changeEmailFormSchema } from '../../../features/auth/schemas';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { loadUserInfo, useSession } from '../../../lib/session';

function ChangeEmailForm() {
  const { t } = useTranslation();
  const mutation = useChangeEmail();
  const form = useForm<{ email: string }>({ resolver: zodResolver(changeEmailFormSchema), mode: 'onChange', defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await mutation.mutateAsync(email.trim());
      notifySuccess('notify.verificationSent');
      form.reset();
    } catch (error) {
      notifyError(error, 'notify.emailChangeFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={420}>
        <Text size="sm" c="dimmed">
          {t('profile.changeEmailHint')}
        </Text>
        <TextInput label={t('fields.email')} type="email" autoComplete="email" {...form.register('email')} error={fieldError(form, 'email', t('fields.email'))} />
        <Button type="submit" variant="light" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending} w="fit-content">
          {t('profile.sendLink')}
        </Button>
      </Stack>
    </form>
  );
}

/** The viewer's own profile (spec §2.16). Subscriptions and statistics fill in with the reviewer features. */
export default function Profile() {
  const { t } = useTranslation();
  const stored = useSession((state) => state.userInfo);
  const query = useQuery({ queryKey: ['users', 'me'], queryFn: loadUserInfo });
  const user = query.data ?? stored;
  if (!user) return <Text>{t('common.loading')}</Text>;
  return (
    <Stack>
      <PageHeading title={t('profile.title')} />
      <ProfileView user={user}>
        <Section title={t('profile.changeEmail')}>
          <ChangeEmailForm />
        </Section>
        <Section title={t('profile.changePassword')}>
          <ChangePasswordForm />
        </Section>
      </ProfileView>
    </Stack>
  );
}
