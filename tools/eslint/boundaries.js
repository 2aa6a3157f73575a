// Import boundaries of docs/architecture.md, enforced by lint rather than goodwill:
// - contract imports only zod;
// - web imports contract, never server; in web, shared (lib, components, config) → features → app, and no feature
//   imports another;
// - in the server, routes → service → repository, and a module reaches another module only through its service;
//   only the HTTP layer (plugins, routes, app.ts, server.ts) imports from plugins/ (issue 45 item 11).
import { dirname, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const rel = (file) => relative(root, file).split(sep).join('/');

function layerOfWeb(path) {
  const match = /^apps\/web\/src\/([^/]+)(?:\/([^/]+))?/.exec(path);
  if (!match) return null;
  const [, top, sub] = match;
  if (sub === undefined && top.includes('.')) return { layer: 'app' }; // main.tsx, the entry point
  if (top === 'features') return { layer: 'feature', feature: sub };
  if (top === 'app') return { layer: 'app' };
  return { layer: 'shared' };
}

function checkWeb(from, to, spec) {
  if (spec.startsWith('@cr/server') || /^apps\/server\//.test(to)) return 'the web app never imports the server';
  const source = layerOfWeb(from);
  const target = layerOfWeb(to);
  if (!source || !target) return null;
  if (source.layer === 'shared' && target.layer !== 'shared')
    return `shared code (lib, components, config) must not import ${target.layer} code`;
  if (source.layer === 'feature' && target.layer === 'app') return 'a feature must not import the app layer';
  if (source.layer === 'feature' && target.layer === 'feature' && source.feature !== target.feature)
    return `feature "${source.feature}" must not import feature "${target.feature}": compose them in app/routes`;
  return null;
}

/** The HTTP layer of the server: the plugins, each module's routes, and the files that assemble the server. */
const isServerHttpLayer = (path) =>
  /^apps\/server\/src\/plugins\//.test(path) || /\.routes\.ts$/.test(path) || /^apps\/server\/src\/(app|server)\.ts$/.test(path);

function checkServer(from, to) {
  if (/^apps\/server\/src\/plugins\//.test(to) && /^apps\/server\/src\//.test(from) && !isServerHttpLayer(from))
    return 'services, repositories, domain and library code sit below the HTTP layer: never import from plugins/';
  const source = /^apps\/server\/src\/modules\/([^/]+)\/(.+)$/.exec(from);
  const target = /^apps\/server\/src\/modules\/([^/]+)\/(.+)$/.exec(to);
  if (!target) return null;
  const [, targetModule, targetFile] = target;
  if (!source) return null;
  const [, sourceModule, sourceFile] = source;
  if (sourceFile.endsWith('.routes.ts') && /\.repository(\.ts)?$/.test(targetFile)) return 'routes call services, never repositories';
  if (/\.repository\.ts$/.test(sourceFile) && /\.(service|routes)(\.ts)?$/.test(targetFile))
    return 'a repository must not import services or routes';
  if (sourceModule !== targetModule && !/\.service(\.ts)?$/.test(targetFile))
    return `module "${sourceModule}" may reach module "${targetModule}" only through its service`;
  return null;
}

const rule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = rel(context.filename);
    const check = (node, source) => {
      // Only literal specifiers name a file; a computed import() is not resolvable here.
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      if (from.startsWith('packages/contract/src/')) {
        if (spec !== 'zod' && !spec.startsWith('./')) context.report({ node, message: 'contract imports only zod and its own files' });
        return;
      }
      const to = spec.startsWith('.') ? rel(resolve(dirname(context.filename), spec)) : spec;
      const message = from.startsWith('apps/web/')
        ? checkWeb(from, to, spec)
        : from.startsWith('apps/server/')
          ? checkServer(from, to)
          : null;
      if (message) context.report({ node, message });
    };
    // `import … from`, `export … from` and `import()` all make a dependency.
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { imports: rule } };
