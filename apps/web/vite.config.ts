import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { preact } from '@preact/preset-vite';
import postcss from 'postcss';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * React Router's production build in the app's build. Its package exports name only its development build, for every
 * condition (remix-run/react-router#12532, #14102: "intended to be temporary"), so bundlers ship the development build,
 * with its development warnings checked at run time; the production build beside it is the same code without them
 * (issue 30 item 5: a phone's first task). Resolved by path; without that file (a later release), the package's own
 * resolution stands.
 */
export function productionRouter(): Plugin {
  const development = createRequire(import.meta.url).resolve('react-router');
  const production = join(dirname(development).replace(/[/\\]development$/, '/production'), 'index.mjs');
  return {
    name: 'cr-production-router',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === 'react-router' && existsSync(production) ? production : null;
    },
  };
}

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
 * Three of Mantine's imports replaced (issue 16: /proposals first load; issue 30 item 5: its first render): ScrollArea takes one hook, `useMergeRefs`, from
 * @floating-ui/react, which brings the whole positioning library (16 KB compressed) along; it gets a local copy
 * (src/lib/merge-refs.ts). And Table imports ScrollArea (5 KB) for `Table.ScrollContainer`, which the app does not use;
 * it gets a plain scrolling box (src/lib/table-scroll-area.tsx). And MantineProvider's CSS variables component, which
 * computes the whole theme's variables on every start (and, on loading, Mantine's default theme's): the app turns it off
 * (`withCssVariables={false}`) and ships them as a stylesheet (src/app/theme-variables.css), so its code is left out
 * (src/lib/no-css-variables.ts). Popovers, menus, tooltips and dialogs still use
 * floating-ui and ScrollArea, loaded with them.
 */
function leanMantineImports(): Plugin {
  const mergeRefs = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));
  const tableScrollArea = fileURLToPath(new URL('./src/lib/table-scroll-area.tsx', import.meta.url));
  const noCssVariables = fileURLToPath(new URL('./src/lib/no-css-variables.ts', import.meta.url));
  const mantine = (path: string) => new RegExp(`[\\\\/]@mantine[\\\\/]core[\\\\/]esm[\\\\/]components[\\\\/]${path}`);
  return {
    name: 'cr-lean-mantine-imports',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      if (source === '@floating-ui/react' && mantine('ScrollArea[\\\\/]').test(importer)) return mergeRefs;
      if (source === '../ScrollArea/ScrollArea.mjs' && mantine('Table[\\\\/]TableScrollContainer\\.mjs$').test(importer)) {
        return tableScrollArea;
      }
      if (
        source === './MantineCssVariables/MantineCssVariables.mjs' &&
        /[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]MantineProvider\.mjs$/.test(importer)
      ) {
        return noCssVariables;
      }
      return null;
    },
  };
}

/**
 * A chunk group for one lazy route: the modules its module reaches through static imports (those of the first load
 * are taken by the `app` group first), so that its page arrives in one file rather than one per shared component.
 */
function routeGroup(name: string, routeModule: string) {
  const root = fileURLToPath(new URL(routeModule, import.meta.url));
  let reached: Set<string> | undefined;
  return (id: string, context: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }) => {
    if (!reached) {
      reached = new Set();
      const stack = [root];
      while (stack.length > 0) {
        const next = stack.pop()!;
        if (reached.has(next)) continue;
        reached.add(next);
        stack.push(...(context.getModuleInfo(next)?.importedIds ?? []).filter((imported) => !imported.includes('node_modules')));
      }
    }
    return reached.has(id) ? name : null;
  };
}

/**
 * Pages whose code the server announces in index.html (`<link rel="modulepreload">`, apps/server/src/plugins/
 * index-html.ts), so that it downloads beside the entry's rather than one round trip after it has run (issue 16:
 * mobile first paint), and so that the app's router does not add a link for each of a page's files as it starts (issue
 * 30 item 5: ~30–45 ms of the first task on a desktop for a page of 25 files). `path` is a regular expression on the
 * URL's path; `modules` the page's lazy modules (app/router.tsx) and the English strings it waits for beyond the first
 * load's (lib/i18n.ts; another language's are fetched as before).
 */
const MORE_STRINGS = './src/locales/en-US.more.json';
const ADMIN_STRINGS = './src/locales/en-US.admin.json';
const PRELOADED_PAGES = [
  { path: '^/proposals(/[^/]*)?/?$', modules: ['./src/app/routes/proposals/proposals.tsx'] },
  { path: '^/$', modules: ['./src/app/routes/home.tsx'] },
  { path: '^/login/?$', modules: ['./src/app/routes/auth/login.tsx'] },
  { path: '^/proposal/[^/]+/?$', modules: ['./src/app/routes/proposals/proposal.tsx', MORE_STRINGS] },
  { path: '^/reviews(/[^/]*)?/?$', modules: ['./src/app/routes/reviews/reviews.tsx', MORE_STRINGS] },
  { path: '^/review/[^/]+/?$', modules: ['./src/app/routes/reviews/review.tsx', MORE_STRINGS] },
  { path: '^/allocated-proposals/?$', modules: ['./src/app/routes/proposals/allocated-proposals.tsx', MORE_STRINGS] },
  { path: '^/allocated-reviews(/[^/]*)?/?$', modules: ['./src/app/routes/reviews/allocated-reviews.tsx', MORE_STRINGS] },
  { path: '^/profile/?$', modules: ['./src/app/routes/profile/profile.tsx', MORE_STRINGS] },
  {
    path: '^/admin(/events)?/?$',
    modules: ['./src/app/routes/admin/admin-layout.tsx', './src/app/routes/admin/events.tsx', ADMIN_STRINGS, MORE_STRINGS],
  },
];

/** For each of PRELOADED_PAGES, the JS files (chunks) it needs beyond the entry's, and the chunks by file name. */
function pageFiles(bundle: OutputBundle) {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const withImports = (start: string[]) => {
    const found = new Set<string>();
    const stack = [...start];
    while (stack.length > 0) {
      const file = stack.pop()!;
      if (found.has(file)) continue;
      found.add(file);
      stack.push(...(byFile.get(file)?.imports ?? []));
    }
    return found;
  };
  const loadedByEntry = withImports(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
  const pages = PRELOADED_PAGES.map(({ path, modules }) => {
    const start = modules.map((module) => {
      const id = fileURLToPath(new URL(module, import.meta.url));
      const chunk = chunks.find((candidate) => candidate.moduleIds.includes(id));
      if (!chunk) throw new Error(`cr-page-preloads: no chunk holds ${module}`);
      return chunk.fileName;
    });
    return { path, files: [...withImports(start)].filter((file) => !loadedByEntry.has(file)) };
  });
  return { pages, byFile };
}

/** Writes `.vite/page-preloads.json`: for each of PRELOADED_PAGES, the JS files it needs beyond the entry's. */
function pagePreloads(): Plugin {
  return {
    name: 'cr-page-preloads',
    apply: 'build',
    writeBundle(options, bundle) {
      // The page chunks take a module without its imports (`pageChunks`): chunks that import each other in a circle
      // would run some code before what it imports. None do; this keeps it so.
      const cycle = chunkCycle(bundle);
      if (cycle) throw new Error(`cr-page-preloads: chunks import each other in a circle: ${cycle.join(' -> ')}`);
      const pages = pageFiles(bundle).pages.map(({ path, files }) => ({ path, files: files.map((file) => `/${file}`) }));
      mkdirSync(join(options.dir!, '.vite'), { recursive: true });
      writeFileSync(join(options.dir!, '.vite', 'page-preloads.json'), `${JSON.stringify(pages, null, 2)}\n`);
    },
  };
}

/**
 * Which preloaded pages load each module, as the bundler's own chunking decides it (after tree-shaking: a component
 * that only a barrel file re-exports is not "reached" by every page), and its size: written by a first, quick build
 * (`vite build --mode page-map`, no minifying, nothing written but this file and MANTINE_CLASSES) for the real
 * build's page chunks.
 */
const PAGE_MAP = fileURLToPath(new URL('./node_modules/.cache/cr-page-map.json', import.meta.url));
export type PageMap = Record<string, { pages: number[]; size: number }>;

function pageMap(): Plugin {
  // The installable app's plugin is not in this pass: its registration module is a stand-in.
  const stub = '\0cr-pwa-register-stub';
  return {
    name: 'cr-page-map',
    apply: 'build',
    resolveId: (source) => (source === 'virtual:pwa-register' ? stub : null),
    load: (id) => (id === stub ? 'export function registerSW() { return () => Promise.resolve(); }' : null),
    generateBundle(_options, bundle) {
      const { pages, byFile } = pageFiles(bundle);
      const map: PageMap = {};
      pages.forEach(({ files }, index) => {
        for (const file of files) {
          const chunk = byFile.get(file)!;
          for (const id of chunk.moduleIds) {
            map[id] ??= { pages: [], size: chunk.modules[id]?.renderedLength ?? 0 };
            map[id].pages.push(index);
          }
        }
      });
      mkdirSync(dirname(PAGE_MAP), { recursive: true });
      writeFileSync(PAGE_MAP, JSON.stringify(map));
      // And the Mantine classes the code names: a component's class the app's code never names is on no element.
      const classes = new Set<string>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') for (const name of item.code.match(MANTINE_CLASS) ?? []) classes.add(name);
      }
      writeFileSync(MANTINE_CLASSES, JSON.stringify([...classes].sort()));
    },
  };
}

/** Mantine's own class names (`m_` and a hash), as its components' CSS modules name them. */
const MANTINE_CLASS = /\bm_[0-9a-f]{5,10}\b/g;
const MANTINE_CLASSES = fileURLToPath(new URL('./node_modules/.cache/cr-mantine-classes.json', import.meta.url));

/**
 * Mantine's stylesheet without the rules of the components the app does not use (issue 30 item 5): the whole of it was
 * 207 KB to parse before a phone's first paint (~20 ms on a desktop, ×4 on a phone), for some 30 components the app
 * never renders (an accordion, a stepper, a slider, …). A rule goes when each of its selectors names a Mantine class that
 * the app's code, as the first build pass bundled it, never names; the order of what stays is the stylesheet's own. Without the
 * first pass's list (development, or a build without the first pass), the stylesheet is left whole.
 */
export function leanMantineStyles(usedClasses: ReadonlySet<string> | undefined): Plugin {
  return {
    name: 'cr-lean-mantine-styles',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!usedClasses || !/[\\/]@mantine[\\/][a-z]+[\\/]styles\.css$/.test(id)) return null;
      return { code: withoutUnusedRules(code, usedClasses), map: null };
    },
  };
}

/** `css` without the selectors that name a Mantine class not in `used`, and without the rules and at-rules left empty. */
export function withoutUnusedRules(css: string, used: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  const unused = (selector: string) => (selector.match(MANTINE_CLASS) ?? []).some((name) => !used.has(name));
  root.walkRules((rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as postcss.AtRule).name)) return;
    const kept = rule.selectors.filter((selector) => !unused(selector));
    if (kept.length === 0) rule.remove();
    else if (kept.length < rule.selectors.length) rule.selectors = kept;
  });
  root.walkAtRules((atRule) => {
    if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
  });
  return root.toString();
}

/** Modules that several pages share, in sets smaller than this (rendered bytes), go together in one chunk. */
export const SMALL_SHARED_SET = 8 * 1024;

/**
 * A page's code in a few files rather than twenty to thirty of 1–5 KB each (issue 30 item 5: a phone on HTTP/1.1
 * fetches six at a time, a round trip each; Lighthouse's simulated phone put 0.3–0.4 s of each page's largest paint
 * there): the modules only one page loads in one chunk for that page, those a set of pages shares in one chunk for that
 * set, and the smallest sets' together. From the first build's map (PAGE_MAP); modules it does not name (the lazy
 * dialogs' and other routes') are chunked by the bundler as before. Only the group's own modules: a module's imports
 * stay in their own set's chunk (`includeDependenciesRecursively: false`).
 */
export function pageChunks(map: PageMap, pageNames: readonly string[]) {
  const keyOf = (pages: number[]) => [...new Set(pages)].sort((a, b) => a - b).join('-');
  const setSize = new Map<string, number>();
  for (const { pages, size } of Object.values(map)) setSize.set(keyOf(pages), (setSize.get(keyOf(pages)) ?? 0) + size);
  return (id: string) => {
    const entry = map[id];
    if (!entry || entry.pages.length === 0) return null;
    const key = keyOf(entry.pages);
    if (!key.includes('-')) return `page-${pageNames[Number(key)]}`;
    return setSize.get(key)! >= SMALL_SHARED_SET ? `pages-${key}` : 'pages-small';
  };
}

/**
 * What the first pass wrote, read once by the build that follows it and then removed: a later build without a first
 * pass (a bare `vite build`) finds none and chunks and styles as the bundler would, rather than by a map of older code.
 * Development (`vite`) never reads it: its stylesheet is Mantine's whole.
 */
let firstPass: { map: PageMap; classes: Set<string> } | null | undefined;
function takeFirstPass() {
  if (firstPass !== undefined) return firstPass ?? undefined;
  firstPass = null;
  if (existsSync(PAGE_MAP) && existsSync(MANTINE_CLASSES)) {
    firstPass = {
      map: JSON.parse(readFileSync(PAGE_MAP, 'utf8')) as PageMap,
      classes: new Set(JSON.parse(readFileSync(MANTINE_CLASSES, 'utf8')) as string[]),
    };
  }
  rmSync(PAGE_MAP, { force: true });
  rmSync(MANTINE_CLASSES, { force: true });
  return firstPass ?? undefined;
}

/** A chain of chunks that import each other in a circle, if the bundle has one: their code could run out of order. */
export function chunkCycle(bundle: OutputBundle): string[] | undefined {
  const imports = new Map(
    Object.values(bundle)
      .filter((item): item is OutputChunk => item.type === 'chunk')
      .map((chunk) => [chunk.fileName, chunk.imports]),
  );
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): string[] | undefined => {
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    if (state.get(file) === 'done') return undefined;
    state.set(file, 'open');
    for (const next of imports.get(file) ?? []) {
      const cycle = visit(next, [...path, file]);
      if (cycle) return cycle;
    }
    state.set(file, 'done');
    return undefined;
  };
  for (const file of imports.keys()) {
    const cycle = visit(file, []);
    if (cycle) return cycle;
  }
  return undefined;
}

const PAGE_NAMES = PRELOADED_PAGES.map(({ modules }) => basename(modules[0]!).replace(/\.tsx?$/, ''));

/**
 * The installable app (issue 29 item 1): Workbox precaches the app shell (index.html and the hashed assets) and answers
 * every navigation with it, so the app opens offline; the API answers above are cached as they are fetched. The
 * worker is registered by the app once it has loaded (src/lib/service-worker.ts), never in development.
 */
function installableApp() {
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
      // The worker takes the pages already open when it first activates (issue 45 item 1): the page that registered it
      // then reads through it, and *My proposals* keeps the allocation for offline reading on that first visit, with
      // no reload. (An update still waits for the old worker's pages to close: no `skipWaiting`.)
      clientsClaim: true,
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      globIgnores: ['**/*.map', '.vite/**'],
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
        {
          // The reviewer's own review of a proposal, and the answer that there is none yet (a 404, issue 45 item 2):
          // offline, that answer opens the empty form rather than an error. Keyed by the proposal's address like the
          // others in the same cache, which a logout deletes (src/lib/service-worker.ts API_CACHE). Before the route
          // below, which would take it and keep only a 200. (Inline: Workbox copies this function's text.)
          urlPattern: ({ url, request }) =>
            request.method === 'GET' && /^\/api\/reviews\/proposals\/\d+\/submitted-review\/?$/.test(url.pathname),
          handler: 'NetworkFirst',
          options: {
            cacheName: 'cr-api',
            networkTimeoutSeconds: 8,
            cacheableResponse: { statuses: [200, 404] },
            expiration: { maxEntries: 1000, maxAgeSeconds: 14 * 24 * 60 * 60 },
          },
        },
        {
          // The API answers a reviewer needs offline: their allocations and proposals, their own reviews, the rounds
          // and their settings, the profile. (Inline: Workbox copies this function's text into the worker.)
          urlPattern: ({ url, request }) =>
            request.method === 'GET' &&
            /^\/api\/reviews\/(proposals|proposal-reviews|events|configs|categories|users\/me)(\/|$)/.test(url.pathname),
          handler: 'NetworkFirst',
          options: {
            cacheName: 'cr-api',
            networkTimeoutSeconds: 8,
            cacheableResponse: { statuses: [200] },
            expiration: { maxEntries: 1000, maxAgeSeconds: 14 * 24 * 60 * 60 },
          },
        },
      ],
    },
  });
}

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';

export default defineConfig(({ command, mode }) => {
  // The first of the build's two passes (package.json `build`): the page map only (pageMap above).
  const mapOnly = mode === 'page-map';
  const learned = command === 'build' && !mapOnly ? takeFirstPass() : undefined;
  return {
    base: '/',
    // Preact in React's place (issue 30 item 5): react and react-dom resolve to preact/compat, in development (with
    // prefresh for hot reload) and in the build. react-dom alone was 55 KB of the 143 KB compressed that every page
    // loaded first; Preact with its compat layer is 9. Why, and what it costs, in docs/decisions.md.
    plugins: [
      productionRouter(),
      preact({ prerender: { enabled: false } }),
      leanMantineImports(),
      ...(mapOnly ? [pageMap()] : [leanMantineStyles(learned?.classes), installableApp(), precompress(), pagePreloads()]),
    ],
    server: {
      port: 5173,
      proxy: { '/api': apiTarget, '/env.js': apiTarget },
    },
    build: {
      outDir: 'dist',
      ...(mapOnly ? { write: false, minify: false, emptyOutDir: false } : {}),
      // Built for error reports but not referenced from the bundles; the server never serves *.map (issue 13 item 13).
      sourcemap: mapOnly ? false : 'hidden',
      chunkSizeWarningLimit: 1500,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'app', tags: ['$initial'], priority: 3 },
              { name: routeGroup('proposals-page', './src/app/routes/proposals/proposals.tsx'), priority: 2 },
              ...(mapOnly
                ? []
                : [{ name: pageChunks(learned?.map ?? {}, PAGE_NAMES), priority: 1, includeDependenciesRecursively: false }]),
            ],
          },
        },
      },
    },
  };
});
