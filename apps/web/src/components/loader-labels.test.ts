import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Mantine's Loader is a plain span: an aria-label on it is an ARIA attribute a span without a role may not carry
 * (axe "aria-prohibited-attr", serious), caught by the browser tests only when they scan a page while it loads. A
 * labelled Loader must say what it is: role="status".
 */
const src = fileURLToPath(new URL('..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.tsx') ? [path] : [];
  });

describe('loaders', () => {
  it('every Loader with an aria-label has role="status"', () => {
    const labelled = sources(src).flatMap((path) =>
      (readFileSync(path, 'utf8').match(/<Loader\b[^>]*>/g) ?? [])
        .filter((tag) => tag.includes('aria-label'))
        .map((tag) => ({ path: path.slice(src.length), tag })),
    );
    expect(labelled.length).toBeGreaterThan(0);
    expect(labelled.filter(({ tag }) => !tag.includes('role="status"'))).toEqual([]);
  });
});
