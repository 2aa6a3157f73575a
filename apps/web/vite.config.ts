import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, once, at build time; the
 * server sends them where the browser's Accept-Encoding allows (@fastify/static `preCompressed`, issue 16).
 */
function precompress(): Plugin {
  return {
    name: 'cr-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|mjs|css|html|svg|json|txt)$/.test(fileName)) continue;
        const path = join(dir, fileName);
        const content = readFileSync(path);
        if (content.length < 1024) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
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
