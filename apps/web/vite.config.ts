import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, once, at build time; the
 * server sends them where the browser's Accept-Encoding allows (@fastify/static `preCompressed`).
 */
function precompress(): Plugin {
  return {
    name: 'cr-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|mjs|css|html|svg|json|txt)$/.test(fileName)) continue;
        const path = join(options.dir!, fileName);
        const content = readFileSync(path);
        if (content.length < 1024) continue;
        const quality = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: quality }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * The installable app: Workbox precaches the app shell and answers every navigation with it, so the app opens
 * offline; the API answers above are cached as they are fetched. Registered by the app (src/lib/service-worker.ts).
 */
function installableApp() {
  const cached = (statuses: number[]) => ({
    cacheName: 'cr-api',
    networkTimeoutSeconds: 8,
    cacheableResponse: { statuses },
    expiration: { maxEntries: 1000, maxAgeSeconds: 14 * 24 * 60 * 60 },
  });
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    manifest: {
      name: 'Community Review',
      short_name: 'Community Review',
      description: 'Review funding proposals, moderate reviews, run funding rounds.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#1c3f95',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // Takes the pages already open when it first activates, so the first visit keeps the allocation for offline
      // reading without a reload. An update still waits for the old worker's pages to close (no skipWaiting).
      clientsClaim: true,
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      globIgnores: ['**/*.map'],
      maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api\//, /^\/env\.js$/],
      cleanupOutdatedCaches: true,
      runtimeCaching: [
        {
          urlPattern: ({ url }) => url.pathname === '/env.js',
          handler: 'NetworkFirst',
          options: { cacheName: 'cr-env', networkTimeoutSeconds: 5 },
        },
        // Workbox copies each `urlPattern` function's text into the worker: its expressions stay inline.
        // The reviewer's own review, and the 404 "none yet" (offline, that opens the empty form); before the next
        // route, which would keep only a 200. A logout deletes the cache (src/lib/service-worker.ts).
        {
          urlPattern: ({ url, request }) =>
            request.method === 'GET' && /^\/api\/reviews\/proposals\/\d+\/submitted-review\/?$/.test(url.pathname),
          handler: 'NetworkFirst',
          options: cached([200, 404]),
        },
        // What a reviewer reads offline: their allocation and proposals, their own reviews, the rounds, the profile.
        {
          urlPattern: ({ url, request }) =>
            request.method === 'GET' &&
            /^\/api\/reviews\/(proposals|proposal-reviews|events|configs|categories|users\/me)(\/|$)/.test(url.pathname),
          handler: 'NetworkFirst',
          options: cached([200]),
        },
      ],
    },
  });
}

/**
 * The libraries every page starts with, in one long-cached file apart from the app's code (which changes more
 * often): React, its router, the query cache, i18next. Mantine's parts go with the chunks that use them.
 */
const STARTUP_VENDOR = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next|zustand)[\\/]/;

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react(), installableApp(), precompress()],
  // Zod with the app's setting (src/lib/zod.ts: no generated code under the CSP), wherever a module imports it.
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod.ts', import.meta.url)) }] },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/env.js': apiTarget },
  },
  build: {
    outDir: 'dist',
    // Built for error reports but not referenced from the bundles; the server never serves *.map.
    sourcemap: 'hidden',
    // The admin's event page (its charts: recharts and d3) is one lazy chunk of ~520 KB; only admins load it.
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: STARTUP_VENDOR, priority: 2 },
            // The rest of what the entry loads (the frame, the session, the API client): one file, not one a module.
            { name: 'app', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
});
