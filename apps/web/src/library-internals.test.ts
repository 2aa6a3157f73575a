import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 46 item 4: the app builds on libraries' public surface only. No module of ours names a Mantine internal class
 * (`m_` and a hash, which changes with any Mantine release), imports a path a package does not export (its `exports`
 * map), or reaches into node_modules by a relative path; and the list rows' own stylesheet (components/plain.*) reads
 * Mantine's public theme variables (`--mantine-*`) only, never a component's own.
 */
const root = join(import.meta.dirname, '../../..');
const SCANNED = ['apps/web/src', 'apps/web/e2e', 'apps/web/vite.config.ts', 'apps/server/src', 'packages', 'tools', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css)$/;

function files(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  try {
    return readdirSync(full, { withFileTypes: true })
      .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist' && !entry.name.startsWith('.'))
      .flatMap((entry) => files(join(path, entry.name)));
  } catch {
    return SOURCE.test(path) ? [path] : [];
  }
}

const sources = SCANNED.flatMap(files).filter((file) => !file.endsWith('library-internals.test.ts'));
const text = (file: string) => readFileSync(join(root, file), 'utf8');

/** Every bare module specifier of a source file (imports, re-exports, dynamic imports, CSS @import). */
function bareSpecifiers(source: string): string[] {
  const found = [
    ...source.matchAll(/\b(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...source.matchAll(/@import\s+['"]([^'"]+)['"]/g),
  ].map((match) => match[1]!);
  return found.filter((spec) => !spec.startsWith('.') && !spec.startsWith('/') && !spec.startsWith('node:') && !spec.includes(':'));
}

/** The package a specifier names and its subpath (`./…`), or none for the package's main entry. */
function split(spec: string): { name: string; subpath?: string } {
  const parts = spec.split('/');
  const count = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(count).join('/');
  return { name: parts.slice(0, count).join('/'), ...(rest ? { subpath: `./${rest}` } : {}) };
}

/** Whether a package's `exports` map offers the subpath (an exact key, or a `*` pattern); true when it has no map. */
function exported(name: string, subpath: string | undefined): boolean {
  const manifest = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return true; // a type-only or virtual module (virtual:pwa-register, vitest's own)
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: unknown };
  // Without a map, a package's build folders are its private layout (nodemailer documents its lib/ modules).
  if (exports === undefined) return subpath === undefined || !/(^|\/)(dist|esm|cjs|src|build)\//.test(subpath);
  if (typeof exports === 'string' || subpath === undefined) return true;
  const keys = Object.keys(exports as object);
  if (!keys.some((key) => key.startsWith('.'))) return subpath === undefined;
  return keys.some((key) => {
    if (!key.includes('*')) return key === subpath;
    const [before, after] = key.split('*') as [string, string];
    return subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length;
  });
}

describe("the libraries' public surface (issue 46 item 4)", () => {
  it('scans the sources', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(sources).toContain('apps/web/src/components/plain.tsx');
  });

  it('names no Mantine internal class', () => {
    const named = sources.filter((file) => /\bm_[0-9a-f]{5,}\b/.test(text(file)));
    expect(named).toEqual([]);
  });

  it('imports only what each package exports, and nothing from node_modules by path', () => {
    const privateImports = sources.flatMap((file) => {
      const source = text(file);
      const byPath = /['"][^'"]*node_modules[\\/][^'"]*['"]/.test(source) && /\b(import|from|require)\b[^\n]*node_modules/.test(source);
      const specifiers = bareSpecifiers(source).filter((spec) => {
        const { name, subpath } = split(spec);
        return !exported(name, subpath);
      });
      return [...(byPath ? [`${file}: a path into node_modules`] : []), ...specifiers.map((spec) => `${file}: ${spec}`)];
    });
    expect(privateImports).toEqual([]);
  });

  it("styles the list rows with Mantine's public theme variables only", () => {
    const plain = sources.filter((file) => /apps\/web\/src\/components\/plain\./.test(file));
    expect(plain.length).toBe(2);
    const variables = plain.flatMap((file) =>
      [...text(file).matchAll(/--[a-z][\w-]*/g)].map((match) => match[0]).filter((name) => !name.startsWith('--mantine-')),
    );
    expect(variables).toEqual([]);
  });

  it('would catch each kind of breach', () => {
    expect(/\bm_[0-9a-f]{5,}\b/.test("className='m_4e7aa4fd'")).toBe(true);
    expect(exported('react-router', './dist/production/index.mjs')).toBe(false);
    expect(exported('@mantine/core', './esm/components/ScrollArea/ScrollArea.mjs')).toBe(false);
    expect(exported('@mantine/core', './styles/Table.css')).toBe(true);
    expect(exported('react-dom', './client')).toBe(true);
    expect(relative(root, join(root, 'apps/web'))).toBe('apps/web');
  });
});
