import { Box, Group, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROPOSALS_PAGE_SIZE } from '../../../features/proposals/api/proposals';
import { REVIEWS_PAGE_SIZE } from '../../../features/reviews/api/keys';
import { api, buildUrl } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { cacheReader, isKept, walkAllocation, type AllocationCopy, type Reader } from '../../../lib/offline-allocation';
import { API_CACHE, canKeepOffline, NoServiceWorker, whenControlled } from '../../../lib/service-worker';

/**
 * Offline reviewing (issue 29 item 1, issue 45 item 1): on *My proposals*, once the app's service worker controls the
 * page (on the first visit too: it claims the open pages as it activates), the whole allocation is read through it,
 * so that it keeps each answer; then the worker's cache is checked, and the page says whether the allocation is
 * available offline. Offline, the check alone runs.
 */

const SIZES = { proposals: PROPOSALS_PAGE_SIZE, reviews: REVIEWS_PAGE_SIZE, concurrency: 4 };
/** A copy kept this recently (in this tab) is only checked, not read again. */
const KEEP_AGAIN_MS = 5 * 60_000;
/** The worker writes an answer to its cache just after the page has it: the check looks again a while. */
const CHECK_TRIES = 40;
const CHECK_EVERY_MS = 250;

const keptAt = new Map<string, number>();

/** Reads through the network (and so through the worker); an answer's status, or none offline. */
const networkReader: Reader = async ({ path, query }) => {
  try {
    return { status: 200, body: await api(path, { query }) };
  } catch (error) {
    return isApiError(error) ? { status: error.status } : undefined;
  }
};

const keptReader = () => cacheReader(API_CACHE, ({ path, query }) => buildUrl(path, query));

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** `unavailable`: the browser refused the app's service worker (a private mode, a policy). */
export type OfflineCopyState = 'preparing' | 'ready' | 'missing' | 'unavailable';

async function keepAllocation(userId: string, online: boolean, signal: AbortSignal): Promise<AllocationCopy> {
  const check = () => walkAllocation(keptReader(), SIZES);
  if (!online) return check();
  await whenControlled(signal);
  const recent = Date.now() - (keptAt.get(userId) ?? 0) < KEEP_AGAIN_MS;
  if (!(recent && isKept(await check()))) await walkAllocation(networkReader, SIZES);
  let copy = await check();
  for (let attempt = 1; attempt < CHECK_TRIES && !isKept(copy); attempt += 1) {
    await pause(CHECK_EVERY_MS, signal);
    copy = await check();
  }
  if (isKept(copy)) keptAt.set(userId, Date.now());
  return copy;
}

/** Whether the viewer's allocation is available offline; `null` where the app keeps nothing (development, no worker). */
export function useOfflineCopy(userId: string | null): { state: OfflineCopyState | null; online: boolean } {
  const { online } = useNetwork();
  const supported = canKeepOffline();
  const [state, setState] = useState<OfflineCopyState>('preparing');
  useEffect(() => {
    if (!userId || !supported) return;
    const abort = new AbortController();
    setState('preparing');
    keepAllocation(userId, online && navigator.onLine, abort.signal).then(
      (copy) => {
        if (!abort.signal.aborted) setState(isKept(copy) ? 'ready' : 'missing');
      },
      (error: unknown) => {
        if (!abort.signal.aborted && error instanceof NoServiceWorker) setState('unavailable');
      },
    );
    return () => abort.abort();
  }, [userId, online, supported]);
  return { state: supported && userId ? state : null, online };
}

/** The line on *My proposals* that says whether the allocation opens without a connection (issue 45 item 1). */
export function OfflineCopyStatus({ state, online }: { state: OfflineCopyState; online: boolean }) {
  const { t } = useTranslation();
  const hints: Record<OfflineCopyState, string> = {
    ready: t('offlineCopy.readyHint'),
    preparing: t('offlineCopy.preparingHint'),
    missing: online ? t('offlineCopy.missingHint') : t('offlineCopy.missingOfflineHint'),
    unavailable: t('offlineCopy.unavailableHint'),
  };
  const labels: Record<OfflineCopyState, string> = {
    ready: t('offlineCopy.ready'),
    preparing: t('offlineCopy.notYet'),
    missing: t('offlineCopy.notYet'),
    unavailable: t('offlineCopy.unavailable'),
  };
  return (
    <Box role="status" mt="md">
      <Group gap={8} wrap="wrap">
        <Text size="sm" fw={600} c={state === 'ready' ? 'teal.9' : undefined} data-testid="offline-status">
          {labels[state]}
        </Text>
        <Text size="sm" c="dimmed">
          {hints[state]}
        </Text>
      </Group>
    </Box>
  );
}
