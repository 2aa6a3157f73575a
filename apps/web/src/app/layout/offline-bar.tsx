import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dismiss, flushOutbox, loadOutbox, useOutbox } from '../../features/reviews/offline-outbox';
import { clearDraft, draftKey } from '../../features/reviews/values';
import { invalidateAfter } from '../../lib/invalidations';
import { notifyInfo, notifySuccess } from '../../lib/notify';
import { useSession } from '../../lib/session';

const RETRY_MS = 30_000;

/**
 * Offline reviewing (issue 29 item 1), what the reviewer sees of it on every page: that they are offline, what waits
 * to be sent, and what the server refused on return (with its message; the draft is kept on the proposal). The
 * waiting writes go when the connection returns, at start, every 30 s while any wait, and on "Send now".
 */
export function OfflineBar() {
  const { t } = useTranslation();
  const { online } = useNetwork();
  const client = useQueryClient();
  const userId = useSession((state) => (state.logged ? (state.userInfo?.catalyst_id.id ?? null) : null));
  const all = useOutbox((state) => state.entries);
  const entries = useMemo(() => all.filter((entry) => entry.userId === userId), [all, userId]);
  const sending = useOutbox((state) => state.sending);
  const waiting = entries.filter((entry) => entry.state === 'waiting');
  const refused = entries.filter((entry) => entry.state === 'refused');

  const send = async () => {
    if (!userId) return;
    const { sent, refused: newlyRefused } = await flushOutbox(userId);
    for (const entry of sent) clearDraft(localStorage, draftKey(userId, entry.proposalId));
    if (sent.length > 0) {
      notifySuccess('offline.sentToast', 'offline.sentTitle', { count: sent.length });
      await invalidateAfter(client, 'saveReview');
    }
    if (newlyRefused.length > 0) notifyInfo('offline.refusedToast', 'offline.refusedTitle', { count: newlyRefused.length });
  };

  useEffect(() => {
    void loadOutbox();
  }, []);
  const hasWaiting = waiting.length > 0;
  useEffect(() => {
    // `useNetwork` says online until its first effect has read the browser's state: a page opened offline would try
    // to send first (offline-copy.tsx asks the browser the same way).
    if (!online || !navigator.onLine || !hasWaiting || !userId) return;
    void send();
    const timer = setInterval(() => void send(), RETRY_MS);
    return () => clearInterval(timer);
    // `send` reads the latest state itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [online, hasWaiting, userId]);

  if (online && entries.length === 0) return null;
  return (
    <Box role="status" bg={refused.length > 0 ? 'red.1' : 'yellow.2'} c="dark.9" py={6} px="md" data-testid="offline-bar">
      <Stack gap={4} align="center">
        {!online && (
          <Text size="sm" fw={600}>
            {t('offline.offline')}
          </Text>
        )}
        {waiting.length > 0 && (
          <Group gap="xs" justify="center">
            <Text size="sm">{t('offline.waiting', { count: waiting.length })}</Text>
            {online && (
              <Button size="compact-xs" variant="white" onClick={() => void send()} loading={sending}>
                {t('offline.sendNow')}
              </Button>
            )}
          </Group>
        )}
        {refused.map((entry) => (
          <Group key={entry.id} gap="xs" justify="center" data-testid="refused-write">
            <Text size="sm">
              {t(`offline.refused.${entry.kind}`, { title: entry.proposalTitle })} {entry.message}
            </Text>
            <Button size="compact-xs" variant="white" onClick={() => void dismiss(entry.id)}>
              {t('offline.dismiss')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Box>
  );
}
