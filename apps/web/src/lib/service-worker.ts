/** How long after the load event the service worker is registered. */
export const SERVICE_WORKER_DELAY_MS = 2000;

/**
 * The installable app's service worker (issue 29 item 1; Workbox, built by vite-plugin-pwa): registered once the page
 * has loaded and settled, so that it never competes with the first load, and only in a production build. `forgetOfflineData`
 * drops the cached API answers (a logout: the next person on the device must not read the last one's allocations).
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // Two seconds after the load, when the browser is idle: the first render of a page outlasts its load event on a
  // phone, and the worker's code, its registration and its precache download are not for the first screen (issue 30
  // item 5: they were fetched and run before a phone's largest paint).
  const register = () =>
    void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true, onRegisterError: registrationFailed }));
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5000 }) : register());
  window.addEventListener('load', () => setTimeout(whenIdle, SERVICE_WORKER_DELAY_MS));
}

/** The worker's cache of API answers (vite.config.ts `installableApp` names it too). */
export const API_CACHE = 'cr-api';

export async function forgetOfflineData() {
  if (typeof caches === 'undefined') return;
  await caches.delete(API_CACHE);
}

/** Whether this app can keep answers for offline reading here: a production build in a browser with service workers. */
export const canKeepOffline = () =>
  import.meta.env.PROD && typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof caches !== 'undefined';

/** Set when the browser refused the worker (a private mode, a policy): nothing is kept for offline reading then. */
let refused = false;
const refusalListeners = new Set<() => void>();
function registrationFailed() {
  refused = true;
  for (const listener of refusalListeners) listener();
}

/** Thrown by `whenControlled` when the browser refused the worker. */
export class NoServiceWorker extends Error {
  constructor() {
    super('The service worker could not be registered.');
  }
}

/**
 * Resolves once a service worker controls this page: at once when one does, else when the app's worker, newly
 * activated, claims the open pages (issue 45 item 1). Rejects with NoServiceWorker when the browser has none or
 * refused the app's, and when `signal` aborts.
 */
export function whenControlled(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    if (!('serviceWorker' in navigator)) return reject(new NoServiceWorker());
    if (navigator.serviceWorker.controller) return resolve();
    if (refused) return reject(new NoServiceWorker());
    const done = () => {
      if (navigator.serviceWorker.controller) resolve();
    };
    const refusal = () => reject(new NoServiceWorker());
    navigator.serviceWorker.addEventListener('controllerchange', done, { signal });
    refusalListeners.add(refusal);
    signal.addEventListener(
      'abort',
      () => {
        refusalListeners.delete(refusal);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
