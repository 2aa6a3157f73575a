import { isApiError } from './api-error';

/** The longest single wait the app accepts from a Retry-After (a longer one is waited in steps of this). */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * The seconds a Retry-After header asks for: delta-seconds or an HTTP date (RFC 9110), at least 1 and at most
 * MAX_RETRY_AFTER_SECONDS; undefined without a usable header.
 */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : Math.ceil((Date.parse(text) - now) / 1000);
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds));
}

/** A 503 that says when to ask again: the server is shedding load, not refusing (issue 45 item 15). */
export function busyRetryAfter(error: unknown): number | undefined {
  return isApiError(error) && error.status === 503 ? error.retryAfter : undefined;
}

/**
 * Runs `task`, and while it fails with a 503 that carries Retry-After, waits as asked and runs it again: a person never
 * sees a failure for load alone (issue 45 item 15). `onWait` hears the seconds left, once a second while waiting, and
 * null once it tries again. `signal` ends the waiting (the screen was left): the promise then rejects with its reason.
 * Any other failure is thrown as it came.
 */
export async function retryWhileBusy<T>(
  task: () => Promise<T>,
  onWait: (secondsLeft: number | null) => void,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    try {
      return await task();
    } catch (error) {
      const seconds = busyRetryAfter(error);
      if (seconds === undefined) throw error;
      for (let left = seconds; left > 0; left -= 1) {
        onWait(left);
        await sleep(1000, signal);
      }
      onWait(null);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
