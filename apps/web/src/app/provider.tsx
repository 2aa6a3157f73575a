import { MantineProvider } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useReducedMotion } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { setAuthHandlers } from '../lib/api-client';
import { resetReadsWhenAccountChanges } from '../lib/invalidations';
import { useModalsWanted } from '../lib/modals';
import { notifyError } from '../lib/notify';
import { queryClient } from '../lib/query-client';
import { listenAcrossTabs, refreshSession, resumeSession, setSessionEndedHandler, useSession } from '../lib/session';
import { appRouter } from './router';
import { theme } from './theme';

setAuthHandlers({
  token: () => {
    const { logged, auth } = useSession.getState();
    return logged ? auth?.access_token : undefined;
  },
  refresh: refreshSession,
});

resetReadsWhenAccountChanges(queryClient);

setSessionEndedHandler((reason) => {
  queryClient.clear();
  if (reason === 'refresh-failed') notifyError(undefined, 'notify.refreshFailed');
  void appRouter().navigate('/login');
});

// The toasts' container (and its transitions) loads with the first toast (issue 16: first load); the store that
// notify.ts writes to is tiny and keeps what was shown meanwhile.
const NotificationsContainer = lazy(() => import('./layout/notifications-host'));
// Mantine's modals manager, mounted with the first confirmation dialog (lib/modals.ts).
const ModalsHost = lazy(() => import('./layout/modals-host'));

const hasNotifications = () => {
  const { notifications, queue } = notificationsStore.getState();
  return notifications.length > 0 || queue.length > 0;
};

function NotificationsHost({ transitionDuration }: { transitionDuration: number }) {
  const [wanted, setWanted] = useState(hasNotifications);
  useEffect(() => {
    if (wanted) return undefined;
    const check = () => {
      if (hasNotifications()) setWanted(true);
    };
    check();
    return notificationsStore.subscribe(check);
  }, [wanted]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsContainer transitionDuration={transitionDuration} />
    </Suspense>
  );
}

export function AppProvider({ children }: { children: ReactNode }) {
  const reduceMotion = useReducedMotion();
  const modalsWanted = useModalsWanted();
  useEffect(() => {
    resumeSession();
    return listenAcrossTabs();
  }, []);
  return (
    // The theme's CSS variables are a stylesheet (theme-variables.css), not computed and injected on each start.
    <MantineProvider theme={theme} withCssVariables={false}>
      <QueryClientProvider client={queryClient}>
        <NotificationsHost transitionDuration={reduceMotion ? 0 : 250} />
        {modalsWanted && (
          <Suspense fallback={null}>
            <ModalsHost />
          </Suspense>
        )}
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
