import './app/mantine-styles';
import './app/theme-variables.css';
import './styles.css';
import { languageReady } from './lib/i18n';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { createAppRouter } from './app/router';
import { registerServiceWorker } from './lib/service-worker';

// English is in the bundle; another language's first strings are one small fetch, made before the first render so
// that no English flashes first. The first render is a transition: React renders it in slices and lets the browser
// answer input between them, rather than in one long task.
async function start() {
  await languageReady;
  const router = createAppRouter();
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    );
  });
}
void start();

// The installable app's service worker, once the page has loaded.
registerServiceWorker();
