import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * Mantine's ScrollArea (imported by every Table) takes one hook, `useMergeRefs`, from @floating-ui/react, which brings
 * the whole positioning library (16 KB compressed) into the first load of every list; it gets a local copy instead
 * (src/lib/merge-refs.ts). Popovers, menus and tooltips still use floating-ui, loaded with them (issue 16).
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const shim = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));
  return {
    name: 'cr-scroll-area-merge-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === '@floating-ui/react' &&
        importer &&
        /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/.test(importer)
      ) {
        return shim;
      }
      return null;
    },
  };
}

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  base: '/',
  plugins: [react(), scrollAreaWithoutFloatingUi(), precompress()],
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
