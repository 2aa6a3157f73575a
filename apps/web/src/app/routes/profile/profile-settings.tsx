import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { MyAppeals } from '../../../features/appeals/components/my-appeals';
import { useChangeEmail } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import { CloseAccount, DownloadMyData } from '../../../features/profile/components/account-data';
import { ApiTokensSection } from '../../../features/profile/components/api-tokens';
import { LanguageSelect } from '../../../features/profile/components/language-select';
import { NotificationPreferencesSection } from '../../../features/profile/components/notification-preferences';
import { Section } from '../../../features/profile/components/profile-view';
import { lazyZodResolver } from '../../../lib/lazy-resolver';
import { notifyError, notifySuccess } from '../../../lib/notify';

const EMAIL_START = { email: '' };
// One resolver for the module, so that the schema, once fetched, outlives a render (lib/lazy-resolver).
const emailResolver = lazyZodResolver<{ email: string }>(
  () => import('../../../features/auth/schemas').then((module) => module.changeEmailFormSchema),
  { invalidStart: EMAIL_START },
);

function ChangeEmailForm() {
  const { t } = useTranslation();
  const mutation = useChangeEmail();
  const form = useForm<{ email: string }>({
    resolver: emailResolver,
    mode: 'onChange',
    defaultValues: EMAIL_START,
  });
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
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          {...form.register('email')}
          error={fieldError(form, 'email', t('fields.email'))}
        />
        <Button
          type="submit"
          variant="light"
          disabled={!form.formState.isValid || mutation.isPending}
          loading={mutation.isPending}
          w="fit-content"
        >
          {t('profile.sendLink')}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * The profile's settings below its first screen (spec §2.16): e-mail, password, language, notifications, appeals, API
 * tokens, the person's data and closing the account (issue 47). Loaded apart from the page's first load (profile.tsx), with the forms' code they bring.
 */
export default function ProfileSettings() {
  const { t } = useTranslation();
  return (
    <>
      <Section title={t('profile.changeEmail')}>
        <ChangeEmailForm />
      </Section>
      <Section title={t('profile.changePassword')}>
        <ChangePasswordForm />
      </Section>
      <Section title={t('nav.language')}>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t('profile.languageHint')}
          </Text>
          <LanguageSelect label testId="profile-language" />
        </Stack>
      </Section>
      <Section title={t('notifications.title')}>
        <NotificationPreferencesSection />
      </Section>
      <Section title={t('appeals.mineTitle')}>
        <MyAppeals />
      </Section>
      <Section title={t('tokens.title')}>
        <ApiTokensSection />
      </Section>
      <Section title={t('accountData.downloadTitle')}>
        <DownloadMyData />
      </Section>
      <Section title={t('accountData.closeSectionTitle')}>
        <CloseAccount />
      </Section>
    </>
  );
}
