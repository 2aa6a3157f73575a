import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORAGE_LOCK_TTL_MS, storageLockKey, withTabLock } from './tab-lock';

// Issue 13 item 6: where navigator.locks is missing (plain http on a LAN address), tabs still refresh one at a time.
const data = new Map<string, string>();
const storage = {
  getItem: vi.fn((key: string) => data.get(key) ?? null),
  setItem: (key: string, value: string) => void data.set(key, String(value)),
  removeItem: (key: string) => void data.delete(key),
  clear: () => data.clear(),
};

beforeAll(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
});

afterEach(() => {
  data.clear();
  storage.getItem.mockClear();
  vi.unstubAllGlobals();
});

const key = storageLockKey('test-lock');

describe('withTabLock without navigator.locks (a lock in localStorage)', () => {
  it('never lets two holders run at once', async () => {
    vi.stubGlobal('navigator', {});
    let active = 0;
    let most = 0;
    const holder = (n: number) => async () => {
      active += 1;
      most = Math.max(most, active);
      await Promise.resolve();
      await new Promise((resolve) => setTimeout(resolve, 0));
      active -= 1;
      return n;
    };
    await expect(Promise.all([1, 2, 3, 4, 5].map((n) => withTabLock('test-lock', holder(n))))).resolves.toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(1);
    expect(data.has(key)).toBe(false); // released
  });

  it('waits while another tab holds the lock, and runs once it lets go', async () => {
    data.set(key, JSON.stringify({ owner: 'other-tab', expires: Date.now() + STORAGE_LOCK_TTL_MS }));
    let released = false;
    const result = withTabLock('test-lock', async () => released);
    // The other tab lets go after this tab has looked at the lock twice (it found it taken).
    await vi.waitFor(() => expect(storage.getItem.mock.calls.filter(([k]) => k === key).length).toBeGreaterThanOrEqual(2));
    released = true;
    data.delete(key);
    await expect(result).resolves.toBe(true);
  });

  it('takes over a lock left by a tab that closed while holding it', async () => {
    data.set(key, JSON.stringify({ owner: 'closed-tab', expires: Date.now() - 1 }));
    await expect(withTabLock('test-lock', async () => 'ran')).resolves.toBe('ran');
    expect(data.has(key)).toBe(false);
  });

  it('lets go when the holder fails', async () => {
    await expect(withTabLock('test-lock', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(data.has(key)).toBe(false);
    await expect(withTabLock('test-lock', async () => 'next')).resolves.toBe('next');
  });
});

describe('withTabLock with navigator.locks', () => {
  it('uses the Web Locks API and leaves localStorage alone', async () => {
    const request = vi.fn((_name: string, run: () => Promise<unknown>) => run());
    vi.stubGlobal('navigator', { locks: { request } });
    await expect(withTabLock('test-lock', async () => 'locked')).resolves.toBe('locked');
    expect(request).toHaveBeenCalledWith('test-lock', expect.any(Function));
    expect(storage.getItem).not.toHaveBeenCalled();
  });
});
