import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/env.js': apiTarget },
  },
  build: {
    outDir: 'dist',
    // Built for error reports but not referenced from the bundles; the server never serves *.map (issue 13 item 13).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1500,
  },
});
