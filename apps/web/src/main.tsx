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
import { router } from './app/router';
import { registerServiceWorker } from './lib/service-worker';

// English is in the bundle; another language's first strings are one small fetch, made before the first render so
// that no English flashes first (issue 31).
void languageReady.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  ),
);

// The installable app's service worker (issue 29), once the page has loaded.
registerServiceWorker();
