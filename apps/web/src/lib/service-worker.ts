/**
 * The installable app's service worker (issue 29 item 1; Workbox, built by vite-plugin-pwa): registered once the page
 * has loaded, so that it never competes with the first load, and only in a production build. `forgetOfflineData`
 * drops the cached API answers (a logout: the next person on the device must not read the last one's allocations).
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
  });
}

export async function forgetOfflineData() {
  if (typeof caches === 'undefined') return;
  await caches.delete('cr-api');
}
