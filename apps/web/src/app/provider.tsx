import { MantineProvider, createTheme } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { setAuthHandlers } from '../lib/api-client';
import { notifyError } from '../lib/notify';
import { queryClient } from '../lib/query-client';
import { listenAcrossTabs, refreshSession, resumeSession, setSessionEndedHandler, useSession } from '../lib/session';
import { router } from './router';

const theme = createTheme({
  primaryColor: 'indigo',
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

export function AppProvider({ children }: { children: ReactNode }) {
  useEffect(() => {
    resumeSession();
    return listenAcrossTabs();
  }, []);
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="bottom-right" autoClose={5000} />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
