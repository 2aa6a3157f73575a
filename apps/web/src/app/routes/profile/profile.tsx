import { Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import { switchActive, type EventPublic } from '@cr/contract/events';
import { useState } from 'react';
import { SubscriptionStatus } from '@cr/contract/subscriptions';
import type { SubscriptionPublic } from '@cr/contract/users';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { PageHeading } from '../../../components/page-heading';
import { ProfileView, Section } from '../../../features/profile/components/profile-view';
import { useChangeEmail } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import { changeEmailFormSchema } from '../../../features/auth/schemas';
import { categoriesQuery, useCurrentEvents } from '../../../features/events/api/events';
import { SubscribeModal } from '../../../features/subscriptions/components/subscribe-modal';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { sharedKeys } from '../../../lib/query-keys';
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
 * Subscribe on an invited subscription (spec §2.16), for its current event whose subscription is enabled. It opens
 * the Subscribe modal at the LV2 form. An admin's view of another user never shows it (that view passes no actions).
 */
function InvitationSubscribe({ subscription, current }: { subscription: SubscriptionPublic; current: EventPublic }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  // The event as it was when the modal opened: answering the invitation ends it, and the modal then shows its confirmation.
  const [event, setEvent] = useState<EventPublic | undefined>();
  return (
    <>
      <Button
        size="xs"
        onClick={() => {
          setEvent(current);
          open();
        }}
        aria-label={t('profile.subscribeTo', { name: current.name })}
      >
        {t('nav.subscribe')}
      </Button>
      {opened && event && (
        <SubscribeModal events={[event]} invitation={subscription} categoriesQuery={categoriesQuery} opened onClose={close} />
      )}
    </>
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
  if (!user) return <Text>{t('common.loading')}</Text>;
  // Only an invitation to a current event open for subscription offers an action (otherwise the row has none).
  const invitationAction = (subscription: SubscriptionPublic) => {
    const current = events.find(
      ({ event, config }) => event.row_id === subscription.event_id && switchActive(config, 'reviewer_subscription_enabled'),
    );
    if (subscription.status !== SubscriptionStatus.invited || !current) return null;
    return <InvitationSubscribe subscription={subscription} current={current.event} />;
  };
  return (
    <Stack>
      <PageHeading title={t('profile.title')} />
      <ProfileView user={user} own subscriptionAction={invitationAction}>
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
