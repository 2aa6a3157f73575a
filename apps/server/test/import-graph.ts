import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** The repository's root, where `packages/contract/src` answers `@cr/contract/<name>`. */
export const repositoryRoot = resolve(import.meta.dirname, '../../..');
const contractSource = join(repositoryRoot, 'packages/contract/src');

/** The TypeScript files below a folder, tests included (a test that imports its subject is an edge too). */
export function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFilesUnder(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a specifier names: relative ones and the contract's own, with or without their ending; null for packages. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = specifier.startsWith('.')
    ? resolve(dirname(from), specifier)
    : specifier.startsWith('@cr/contract/')
      ? join(contractSource, specifier.slice('@cr/contract/'.length))
      : null;
  if (base === null) return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), join(base, 'index.ts')];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate)) ?? null;
}

/**
 * Every file a file imports, as TypeScript reads it: `import` and `export … from` (type-only ones too, as a type-only
 * loop still ties two modules together), side-effect imports and `import()`.
 */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.flatMap(({ fileName }) => resolveSpecifier(file, fileName) ?? []);
}

/** The import graph of some files: each file to the files it imports. */
export function importGraph(files: string[]): Map<string, Set<string>> {
  return new Map(files.map((file) => [file, new Set(importsOf(file))]));
}

/** A cycle in a directed graph (as the list of its nodes, first one repeated at the end), or null. */
export function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Every cycle of the graph, one for each group of nodes that reach each other (so a failing test names them all, not
 * just the first): the cycle found inside the group.
 */
export function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (;;) {
    const rest = new Map([...graph].filter(([node]) => !seen.has(node)));
    const cycle = findCycle(rest);
    if (!cycle) return cycles;
    cycles.push(cycle);
    for (const node of reachingEachOther(rest, cycle[0]!)) seen.add(node);
  }
}

/** The nodes that `start` reaches and that reach `start` back. */
function reachingEachOther(graph: Map<string, Set<string>>, start: string): Set<string> {
  const reachable = (edges: (node: string) => Iterable<string>) => {
    const found = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      for (const next of edges(queue.pop()!)) {
        if (found.has(next)) continue;
        found.add(next);
        queue.push(next);
      }
    }
    return found;
  };
  const forward = reachable((node) => graph.get(node) ?? []);
  const backward = reachable((node) => [...graph].filter(([, targets]) => targets.has(node)).map(([from]) => from));
  return new Set([...forward].filter((node) => backward.has(node)));
}
