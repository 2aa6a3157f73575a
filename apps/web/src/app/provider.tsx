import { DEFAULT_THEME, MantineProvider, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { notificationsStore } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useReducedMotion } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { setAuthHandlers } from '../lib/api-client';
import i18n from '../lib/i18n';
import { useModalsWanted } from '../lib/modals';
import { notifyError } from '../lib/notify';
import { queryClient } from '../lib/query-client';
import { listenAcrossTabs, refreshSession, resumeSession, setSessionEndedHandler, useSession } from '../lib/session';
import { router } from './router';

/**
 * An indigo whose shade 8, the primary shade (filled buttons, links, light variants of every colour), keeps a 4.5:1
 * contrast against white (WCAG AA).
 */
const brand: MantineColorsTuple = [
  '#eef0fd',
  '#dde2fb',
  '#c3cbf6',
  '#a3b0f1',
  '#8597ee',
  '#6a7feb',
  '#5468e2',
  '#4659d6',
  '#3a50c9',
  '#2d3fa6',
];

/** Mantine's palette with shades 8 and 9 darkened where the stock shade falls below 4.5:1 on white or on its light tint. */
function darker(name: keyof typeof DEFAULT_THEME.colors, shade8: string, shade9: string): MantineColorsTuple {
  const [c0, c1, c2, c3, c4, c5, c6, c7] = DEFAULT_THEME.colors[name] ?? DEFAULT_THEME.colors.gray!;
  return [c0, c1, c2, c3, c4, c5, c6, c7, shade8, shade9];
}

/** Dimmed text and error messages darker than Mantine's defaults, for the same contrast. */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

const theme = createTheme({
  colors: {
    brand,
    green: darker('green', '#1a6e2e', '#145a25'),
    teal: darker('teal', '#087563', '#065a4c'),
    red: darker('red', '#c92a2a', '#a51d1d'),
    orange: darker('orange', '#b34a06', '#8f3a04'),
    yellow: darker('yellow', '#8a6100', '#704f00'),
  },
  primaryColor: 'brand',
  primaryShade: 8,
  respectReducedMotion: true,
  components: {
    // Close buttons of dialogs carry a name (axe 'button-name').
    // Plain objects, not Modal.extend(): the theme must not pull the dialogs into every page's first load (issue 16).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Notification: { styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
  },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

setAuthHandlers({
  token: () => {
    const { logged, auth } = useSession.getState();
    return logged ? auth?.access_token : undefined;
  },
  refresh: refreshSession,
});

setSessionEndedHandler((reason) => {
  queryClient.clear();
  if (reason === 'refresh-failed') notifyError(undefined, 'notify.refreshFailed');
  void router.navigate('/login');
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
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
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
