import { queryOptions } from '@tanstack/react-query';
import type { MailQueueOverview, RetryFailedMails, RetryFailedMailsAnswer } from '@cr/contract/mail';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { familyKeys } from '../../../lib/query-keys';

/** How often the open queue view asks again: the worker sends in the background. */
const MAIL_QUEUE_REFRESH_MS = 5_000;

export const mailQueueKeys = {
  overview: [...familyKeys.mailQueue, 'overview'] as const,
};

/** `GET admin/mail-queue/` (issue 27): mails per kind and status, the oldest queued one, the last failures. */
export const mailQueueQuery = queryOptions({
  queryKey: mailQueueKeys.overview,
  queryFn: () => api<MailQueueOverview>('admin/mail-queue/'),
  refetchInterval: MAIL_QUEUE_REFRESH_MS,
  retry: false,
});

/** `POST admin/mail-queue/retry`: failed mails (all, or of one kind, or one) back to the queue. */
export function useRetryFailedMails() {
  return useInvalidatingMutation('retryFailedMails', {
    mutationFn: (filter: RetryFailedMails) =>
      api<RetryFailedMailsAnswer>('admin/mail-queue/retry', { method: 'POST', body: { retry_failed: filter } }),
  });
}
