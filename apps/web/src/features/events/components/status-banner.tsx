import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { loadMoreStrings } from '../../../lib/i18n';
import { statusQuery } from '../api/events';

// The messages and their sanitiser (DOMPurify) load only when there is a message to show (issue 16: first load).
const StatusMessages = lazy(() =>
  Promise.all([import('./status-messages'), loadMoreStrings()]).then(([module]) => ({ default: module.StatusMessages })),
);

/** Above the navigation: every active status message (spec §2.3), its HTML sanitised, coloured by severity. */
export function StatusBanner() {
  const { data } = useQuery(statusQuery);
  const messages = (data ?? []).filter((message) => message.is_active);
  if (messages.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <StatusMessages messages={messages} />
    </Suspense>
  );
}
