import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycle, importsOf, sourceFilesUnder } from './import-graph';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const modulesDir = join(src, 'modules');

const moduleOf = (file: string) => {
  const path = relative(modulesDir, file);
  return path.startsWith('..') ? null : path.split(sep)[0]!;
};

describe('architecture: the server modules form a one-way graph (issue 11 item 3)', () => {
  const files = sourceFilesUnder(modulesDir);

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set<string>()],
        ]),
      ),
    ).toBeNull();
  });

  it('no module imports, directly or through others, a module that imports it (src/modules/*)', () => {
    const graph = new Map<string, Set<string>>();
    for (const file of files) {
      const from = moduleOf(file)!;
      const edges = graph.get(from) ?? new Set<string>();
      for (const target of importsOf(file)) {
        const to = moduleOf(target);
        if (to && to !== from) edges.add(to);
      }
      graph.set(from, edges);
    }
    expect(graph.size).toBeGreaterThan(5);
    expect(findCycle(graph)).toBeNull();
  });

  it('no file of a module imports itself back through others (src/modules/**)', () => {
    const graph = new Map(files.map((file) => [relative(src, file), new Set(importsOf(file).map((target) => relative(src, target)))]));
    expect(findCycle(graph)).toBeNull();
  });

  it('app.ts builds each service after the ones it uses: no reference to a constant declared further down', () => {
    const text = readFileSync(join(src, 'app.ts'), 'utf8');
    const block = text.slice(text.indexOf('const jwt = '), text.indexOf('registerAuth(app'));
    const declarations = [...block.matchAll(/^ {2}const (\w+) = /gm)].map((match) => ({ name: match[1]!, at: match.index }));
    expect(declarations.map((d) => d.name)).toEqual(expect.arrayContaining(['lookups', 'events', 'subscriptions', 'userInfo', 'reviews']));
    const late: string[] = [];
    declarations.forEach((declaration, i) => {
      const body = block.slice(declaration.at, declarations[i + 1]?.at ?? block.length);
      for (const later of declarations.slice(i + 1))
        if (new RegExp(`\\b${later.name}\\b`).test(body)) late.push(`${declaration.name} uses ${later.name}`);
    });
    expect(late).toEqual([]);
  });
});

describe('architecture: services sit below the HTTP layer (issue 45 item 11)', () => {
  const plugins = join(src, 'plugins') + sep;
  // The HTTP layer: the plugins themselves, the routes of each module, and the files that assemble the server.
  const isHttpLayer = (file: string) =>
    file.startsWith(plugins) || file.endsWith('.routes.ts') || ['app.ts', 'server.ts'].includes(relative(src, file));

  it('no service, repository, domain or library file imports from plugins/ (routes and app.ts may)', () => {
    const files = sourceFilesUnder(src).filter((file) => !isHttpLayer(file));
    expect(files.filter((file) => file.endsWith('.service.ts')).length).toBeGreaterThan(10);
    const crossings = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(plugins))
        .map((target) => `${relative(src, file)} → ${relative(src, target)}`),
    );
    expect(crossings).toEqual([]);
  });
});
