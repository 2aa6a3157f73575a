/**
 * A lock shared by the tabs of this origin. `navigator.locks` where it exists; it is missing outside secure contexts
 * (plain http on a LAN address), and there a lock kept in localStorage stands in: best effort (localStorage has no
 * compare-and-set), so the server's refresh grace window stays the backstop.
 */
export async function withTabLock<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks) return navigator.locks.request(name, run);
  if (!storageWorks()) return run();
  return withStorageLock(name, run);
}

/** How long a lock outlives a tab that closed while holding it; the holder renews it meanwhile. */
export const STORAGE_LOCK_TTL_MS = 10_000;
/** How long a tab lets competing writes land before it reads back whether it won. */
const SETTLE_MS = 25;
const POLL_MS = 50;

interface Holder {
  owner: string;
  expires: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number) => ms + Math.floor(Math.random() * ms);

function storageWorks(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage !== null;
  } catch {
    return false;
  }
}

export const storageLockKey = (name: string) => `lock:${name}`;

function holderOf(key: string): Holder | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<Holder> | null;
    return value && typeof value.owner === 'string' && typeof value.expires === 'number' ? (value as Holder) : null;
  } catch {
    return null;
  }
}

const claim = (key: string, owner: string) =>
  localStorage.setItem(key, JSON.stringify({ owner, expires: Date.now() + STORAGE_LOCK_TTL_MS } satisfies Holder));

async function withStorageLock<T>(name: string, run: () => Promise<T>): Promise<T> {
  const key = storageLockKey(name);
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  for (;;) {
    const holder = holderOf(key);
    if (!holder || holder.expires <= Date.now()) {
      claim(key, owner);
      await sleep(jitter(SETTLE_MS));
      if (holderOf(key)?.owner === owner) break;
    } else {
      await sleep(jitter(POLL_MS));
    }
  }
  const renew = setInterval(() => {
    if (holderOf(key)?.owner === owner) claim(key, owner);
  }, STORAGE_LOCK_TTL_MS / 3);
  try {
    return await run();
  } finally {
    clearInterval(renew);
    if (holderOf(key)?.owner === owner) localStorage.removeItem(key);
  }
}
