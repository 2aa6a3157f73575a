import { switchActive, SubscriptionStatus } from '@cr/contract/plain';
import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EventPublic } from '@cr/contract/events';
import { lazy, Suspense, useState } from 'react';
import type { SubscriptionPublic } from '@cr/contract/users';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { ProfileView } from '../../../features/profile/components/profile-view';
import { categoriesQuery, useCurrentEvents } from '../../../features/events/api/events';
import { userInfoQuery } from '../../../features/profile/api/me';
import { useSession } from '../../../lib/session';

// The settings below the first screen (their forms' code) load apart from the page's first load.
const ProfileSettings = lazy(() => import('./profile-settings'));

// The Subscribe modal (its form, multi-select and LV2 form) loads when an invitation is answered.
const SubscribeModal = lazy(() =>
  import('../../../features/subscriptions/components/subscribe-modal').then((module) => ({ default: module.SubscribeModal })),
);

/** The viewer's own profile (spec §2.16). */
export default function Profile() {
  const { t } = useTranslation();
  const stored = useSession((state) => state.userInfo);
  const query = useQuery(userInfoQuery);
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
        <Suspense fallback={null}>
          <ProfileSettings />
        </Suspense>
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
