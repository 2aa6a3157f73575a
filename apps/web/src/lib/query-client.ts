import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors won't get better by asking again.
      retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
      // Offline, a query still asks (issue 29): the service worker answers from its cache what it has.
      networkMode: 'offlineFirst',
    },
    // Offline, a write still runs: a review write then waits in the outbox (features/reviews/offline-outbox.ts).
    mutations: { networkMode: 'always' },
  },
});
