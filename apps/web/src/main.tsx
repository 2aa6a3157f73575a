import './lib/zod-config';
import '@mantine/core/styles.css';
import './styles.css';
import './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { router } from './app/router';
import { registerServiceWorker } from './lib/service-worker';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);

// The installable app's service worker (issue 29), once the page has loaded.
registerServiceWorker();
