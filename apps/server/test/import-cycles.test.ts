import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycles, importGraph, importsOf, repositoryRoot, sourceFilesUnder } from './import-graph';

/**
 * No import loop anywhere (issue 26 item 17): a loop makes the order in which modules initialise depend on which one
 * is loaded first, and ties modules together that then can only be understood and changed as one. The contract had
 * common → rules → plain → users → common, the CLI cli-commands ↔ cli-backup. Type-only imports count too.
 */
const trees = [
  'packages/contract/src',
  'packages/contract/test',
  'apps/server/src',
  'apps/server/test',
  'apps/web/src',
  'apps/web/e2e',
  'bench',
];

describe('import cycles (issue 26 item 17)', () => {
  it('finds every loop of a graph, one for each group of files that import each other (the check itself works)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c', 'd'])],
      ['c', new Set(['a'])],
      ['d', new Set(['e'])],
      ['e', new Set(['d'])],
      ['f', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['d', 'e', 'd'],
    ]);
    expect(findCycles(new Map([['a', new Set(['b'])]]))).toEqual([]);
  });

  it("reads type-only imports, re-exports, side-effect imports, import() and the contract's package name as edges", () => {
    const file = join(repositoryRoot, 'apps/server/src/example.ts');
    const text = [
      "import type { CliDeps } from './cli-commands';",
      "export { loadConfig } from './config';",
      "import './cli-backup';",
      "const later = () => import('./demo');",
      "import { UserRole } from '@cr/contract/users';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf(file, text).map((target) => relative(repositoryRoot, target))).toEqual([
      'apps/server/src/cli-commands.ts',
      'apps/server/src/config.ts',
      'apps/server/src/cli-backup.ts',
      'apps/server/src/demo.ts',
      'packages/contract/src/users.ts',
    ]);
    const router = join(repositoryRoot, 'apps/web/src/app/router.tsx');
    expect(importsOf(router).map((target) => relative(repositoryRoot, target))).toContain('apps/web/src/app/routes/home.tsx');
  });

  it('no file of the contract, the server, the web app, their tests or the benchmarks imports itself back through others', () => {
    const files = trees.flatMap((tree) => sourceFilesUnder(join(repositoryRoot, tree)));
    expect(files.length).toBeGreaterThan(300);
    const cycles = findCycles(importGraph(files)).map((cycle) => cycle.map((file) => relative(repositoryRoot, file)).join(' → '));
    expect(cycles).toEqual([]);
  });
});
