import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { MAX_RETRY_AFTER_SECONDS, retryAfterSeconds, retryWhileBusy } from './busy-retry';

const busy = (seconds?: number) => {
  const error = new ApiError(503, 'busy', 'busy');
  error.retryAfter = seconds;
  return error;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('Retry-After (issue 45 item 15)', () => {
  it('reads delta-seconds and HTTP dates, at least 1 s and at most the cap; nothing usable is undefined', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(retryAfterSeconds('3', now)).toBe(3);
    expect(retryAfterSeconds(' 0 ', now)).toBe(1);
    expect(retryAfterSeconds('86400', now)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(retryAfterSeconds('Sun, 01 Jun 2025 12:00:05 GMT', now)).toBe(5);
    expect(retryAfterSeconds('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(1);
    expect(retryAfterSeconds(null, now)).toBeUndefined();
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
  });
});

describe('retryWhileBusy (issue 45 item 15)', () => {
  it('waits as a 503 with Retry-After asks, counting down, then tries again', async () => {
    vi.useFakeTimers();
    const task = vi.fn<() => Promise<string>>().mockRejectedValueOnce(busy(3)).mockResolvedValueOnce('in');
    const waits: (number | null)[] = [];
    const done = retryWhileBusy(task, (seconds) => waits.push(seconds));
    await vi.advanceTimersByTimeAsync(2999);
    expect(task).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([3, 2, 1]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toBe('in');
    expect(task).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([3, 2, 1, null]);
  });

  it('throws any other failure at once: a 503 without Retry-After, a 429, a 401', async () => {
    for (const error of [busy(undefined), Object.assign(new ApiError(429, 'x', 'x'), { retryAfter: 5 }), new ApiError(401, 'x', 'x')]) {
      const task = vi.fn<() => Promise<string>>().mockRejectedValue(error);
      await expect(retryWhileBusy(task, () => {})).rejects.toBe(error);
      expect(task).toHaveBeenCalledTimes(1);
    }
  });

  it('stops waiting when the signal ends it (the person left the screen)', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const task = vi.fn<() => Promise<string>>().mockRejectedValue(busy(10));
    const done = retryWhileBusy(task, () => {}, controller.signal);
    const outcome = expect(done).rejects.toBe('left');
    await vi.advanceTimersByTimeAsync(2000);
    controller.abort('left');
    await outcome;
    expect(task).toHaveBeenCalledTimes(1);
  });
});
