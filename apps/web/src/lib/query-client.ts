import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Client errors won't get better by asking again.
      retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
    },
  },
});
