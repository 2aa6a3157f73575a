import { switchActive, SubscriptionStatus } from '@cr/contract/plain';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EventPublic } from '@cr/contract/events';
import { lazy, Suspense, useState } from 'react';
import type { SubscriptionPublic } from '@cr/contract/users';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { InTurn } from '../../../components/in-turn';
import { PageHeading } from '../../../components/page-heading';
import { MyAppeals } from '../../../features/appeals/components/my-appeals';
import { NotificationPreferencesSection } from '../../../features/profile/components/notification-preferences';
import { ApiTokensSection } from '../../../features/profile/components/api-tokens';
import { CloseAccount, DownloadMyData } from '../../../features/profile/components/account-data';
import { LanguageSelect } from '../../../features/profile/components/language-select';
import { ProfileView, Section } from '../../../features/profile/components/profile-view';
import { useChangeEmail } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import { categoriesQuery, useCurrentEvents } from '../../../features/events/api/events';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { sharedKeys } from '../../../lib/query-keys';
import { loadUserInfo, useSession } from '../../../lib/session';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

// The Subscribe modal (its form, multi-select and LV2 form) loads when an invitation is answered.
const SubscribeModal = lazy(() =>
  import('../../../features/subscriptions/components/subscribe-modal').then((module) => ({ default: module.SubscribeModal })),
);

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

/** The viewer's own profile (spec §2.16). */
export default function Profile() {
  const { t } = useTranslation();
  const stored = useSession((state) => state.userInfo);
  const query = useQuery({ queryKey: sharedKeys.me, queryFn: loadUserInfo });
  // The query refreshes the stored info on each visit; the store also follows later changes (an invitation answered).
  const user = stored ?? query.data;
  const { events } = useCurrentEvents();
  // The invitation being answered, with its event as it was when the modal opened: answering ends the invitation
  // (its row then offers nothing), and the modal stays to show its confirmation.
  const [answering, setAnswering] = useState<{ subscription: SubscriptionPublic; event: EventPublic } | null>(null);
  if (!user) return <Text>{t('common.loading')}</Text>;
  /**
   * Subscribe on an invited subscription (spec §2.16), only while its event is current with subscription enabled; it
   * opens the Subscribe modal at the LV2 form. Any other row offers nothing (and an admin's view passes no actions).
   */
  const invitationAction = (subscription: SubscriptionPublic) => {
    const current = events.find(
      ({ event, config }) => event.row_id === subscription.event_id && switchActive(config, 'reviewer_subscription_enabled'),
    );
    if (subscription.status !== SubscriptionStatus.invited || !current) return null;
    return (
      <Button
        size="xs"
        onClick={() => setAnswering({ subscription, event: current.event })}
        aria-label={t('profile.subscribeTo', { name: current.event.name })}
      >
        {t('nav.subscribe')}
      </Button>
    );
  };
  return (
    <Stack>
      <PageHeading title={t('profile.title')} />
      <ProfileView user={user} own subscriptionAction={invitationAction}>
        <InTurn>
          <Section title={t('profile.changeEmail')}>
            <ChangeEmailForm />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('profile.changePassword')}>
            <ChangePasswordForm />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('nav.language')}>
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                {t('profile.languageHint')}
              </Text>
              <LanguageSelect label testId="profile-language" />
            </Stack>
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('notifications.title')}>
            <NotificationPreferencesSection />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('appeals.mineTitle')}>
            <MyAppeals />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('tokens.title')}>
            <ApiTokensSection />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('accountData.downloadTitle')}>
            <DownloadMyData />
          </Section>
        </InTurn>
        <InTurn>
          <Section title={t('accountData.closeSectionTitle')}>
            <CloseAccount />
          </Section>
        </InTurn>
      </ProfileView>
      {answering && (
        <Suspense fallback={null}>
          <SubscribeModal
            events={[answering.event]}
            invitation={answering.subscription}
            categoriesQuery={categoriesQuery}
            opened
            onClose={() => setAnswering(null)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
