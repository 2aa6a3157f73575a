import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md: in the web app, shared code (lib, components, config) → features → app, and no feature imports
 * another; features are composed in app/routes. The lint rule (tools/eslint/boundaries.js) reports each import as it
 * is written; this test reads every source file of the web app and proves the whole graph keeps the rule.
 */
const src = import.meta.dirname;
const features = join(src, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier: `import … from`, `export … from`, side-effect `import '…'` and `import('…')`. */
function specifiers(text: string): string[] {
  const found = [
    ...text.matchAll(/\b(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((match) => match[1]!);
}

/** Where a file sits: the feature it belongs to, or the layer. */
function placeOf(path: string): string {
  const parts = relative(src, path).split(sep);
  if (parts[0] === 'features') return `feature:${parts[1]}`;
  if (parts[0] === 'app' || parts.length === 1) return 'app';
  return 'shared';
}

const graph = sourceFiles(src).map((file) => ({
  file,
  place: placeOf(file),
  targets: specifiers(readFileSync(file, 'utf8'))
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ spec, place: placeOf(resolve(dirname(file), spec)) })),
}));

describe('import boundaries of the web app (docs/architecture.md)', () => {
  it('finds the features and their imports (the test reads what it means to)', () => {
    expect(readdirSync(features).length).toBeGreaterThan(3);
    expect(graph.filter((node) => node.place.startsWith('feature:')).length).toBeGreaterThan(20);
    expect(specifiers(`import { a } from '../b';\nexport * from './c';\nimport './d.css';\nconst e = import('./e');`)).toEqual([
      '../b',
      './c',
      './d.css',
      './e',
    ]);
  });

  it('no feature imports another feature', () => {
    const crossings = graph.flatMap(({ file, place, targets }) =>
      place.startsWith('feature:')
        ? targets
            .filter((target) => target.place.startsWith('feature:') && target.place !== place)
            .map((target) => `${relative(src, file)} → ${target.spec}`)
        : [],
    );
    expect(crossings).toEqual([]);
  });

  it('shared code imports no feature and no app code; features import no app code', () => {
    const crossings = graph.flatMap(({ file, place, targets }) =>
      targets
        .filter((target) =>
          place === 'shared' ? target.place !== 'shared' : place.startsWith('feature:') ? target.place === 'app' : false,
        )
        .map((target) => `${relative(src, file)} → ${target.spec}`),
    );
    expect(crossings).toEqual([]);
  });

  it('there is one reviews feature', () => {
    expect(readdirSync(features)).not.toContain('review-browse');
  });
});
