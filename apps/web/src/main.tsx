import './lib/preact-options';
import './lib/zod-config';
import '@mantine/core/styles.css';
import './app/theme-variables.css';
import './styles.css';
import { languageReady } from './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { nextTask } from './lib/in-turn';
import { registerServiceWorker } from './lib/service-worker';

// English is in the bundle; another language's first strings are one small fetch, made before the first render so
// that no English flashes first (issue 31). Then the router, then the first render, each in a task of its own: on a
// phone the three in one task blocked input for half a second (issue 30 item 5: total blocking time).
async function start() {
  await languageReady;
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
}
void start();

// The installable app's service worker (issue 29), once the page has loaded.
registerServiceWorker();
