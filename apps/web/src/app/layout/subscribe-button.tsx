import { Button } from '@mantine/core';
import type { EventPublic } from '@cr/contract/events';
import { AccountStatus, switchActive } from '@cr/contract/plain';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadMoreStrings } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { categoriesQuery, useCurrentEvents } from '../../features/events/api/events';

// Loaded when first opened: its form (react-hook-form, multi-select) stays out of every page's first load (issue 16).
const SubscribeModal = lazy(() =>
  Promise.all([import('../../features/subscriptions/components/subscribe-modal'), loadMoreStrings()]).then(([module]) => ({
    default: module.SubscribeModal,
  })),
);

/**
 * The current events the logged-in user may subscribe to: an active account, subscription open and no subscription
 * yet (spec §6; an inactive account may log in but not subscribe).
 */
export function useSubscribableEvents() {
  const logged = useSession((state) => state.logged);
  const active = useSession((state) => state.userInfo?.catalyst_id.status === AccountStatus.active);
  const subscriptions = useSession((state) => state.userInfo?.extra.subscriptions);
  const { events } = useCurrentEvents();
  if (!logged || !active) return [];
  const subscribed = new Set((subscriptions ?? []).map((item) => item.event_id));
  return events
    .filter(({ event, config }) => switchActive(config, 'reviewer_subscription_enabled') && !subscribed.has(event.row_id))
    .map(({ event }) => event);
}

/** The navigation bar's Subscribe button (spec §2.3), shown while there is an event to subscribe to. */
export function SubscribeButton() {
  const { t } = useTranslation();
  const events = useSubscribableEvents();
  const [opened, { open, close }] = useDisclosure(false);
  // The modal works through the events as they were when it opened; subscribing removes them from `events`.
  const [queue, setQueue] = useState<EventPublic[]>([]);
  const [wanted, setWanted] = useState(false);
  if (events.length === 0 && !opened) return null;
  return (
    <>
      <Button
        size="xs"
        onClick={() => {
          setQueue(events);
          setWanted(true);
          open();
        }}
      >
        {t('nav.subscribe')}
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <SubscribeModal events={queue} categoriesQuery={categoriesQuery} opened={opened} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
