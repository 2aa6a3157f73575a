import { describe, expect, it } from 'vitest';
import type { OutputBundle } from 'rolldown';
import { chunkCycle, pageChunks, SMALL_SHARED_SET, type PageMap } from '../vite.config';

/**
 * Issue 30 item 5: a page's code comes in a few files (vite.config.ts `pageChunks`), from the first build pass's map of
 * which pages load each module: one chunk a page for what only it loads, one a shared set of pages, and one for the
 * smallest shared sets together; what the map does not name is left to the bundler.
 */
describe('the pages’ chunks', () => {
  const pages = ['proposal', 'review', 'profile'];
  const big = SMALL_SHARED_SET;
  const map: PageMap = {
    '/a/proposal-only.tsx': { pages: [0], size: 10 },
    '/a/review-only.tsx': { pages: [1], size: 10 },
    '/a/shared-big-1.tsx': { pages: [0, 1], size: big / 2 },
    '/a/shared-big-2.tsx': { pages: [1, 0, 1], size: big / 2 },
    '/a/shared-small.tsx': { pages: [1, 2], size: 100 },
    '/a/shared-small-too.tsx': { pages: [0, 2], size: 100 },
    '/a/read-by-none.tsx': { pages: [], size: 100 },
  };
  const name = pageChunks(map, pages);

  it('puts what one page alone loads in that page’s chunk', () => {
    expect(name('/a/proposal-only.tsx')).toBe('page-proposal');
    expect(name('/a/review-only.tsx')).toBe('page-review');
  });

  it('puts a set of pages’ shared modules together once the set is large enough, whatever the order pages were seen in', () => {
    expect(name('/a/shared-big-1.tsx')).toBe('pages-0-1');
    expect(name('/a/shared-big-2.tsx')).toBe('pages-0-1');
  });

  it('puts the small sets’ modules in one chunk', () => {
    expect(name('/a/shared-small.tsx')).toBe('pages-small');
    expect(name('/a/shared-small-too.tsx')).toBe('pages-small');
  });

  it('leaves modules no page loads, or the map does not know, to the bundler', () => {
    expect(name('/a/read-by-none.tsx')).toBeNull();
    expect(name('/a/unknown.tsx')).toBeNull();
  });
});

describe('chunks importing each other in a circle (the build refuses them)', () => {
  const bundle = (imports: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(imports).map(([fileName, chunkImports]) => [fileName, { type: 'chunk', fileName, imports: chunkImports }]),
    ) as unknown as OutputBundle;

  it('finds none in a bundle whose imports only go one way', () => {
    expect(chunkCycle(bundle({ 'index.js': ['a.js'], 'a.js': ['b.js', 'c.js'], 'b.js': ['c.js'], 'c.js': [] }))).toBeUndefined();
  });

  it('names the circle', () => {
    expect(chunkCycle(bundle({ 'index.js': ['a.js'], 'a.js': ['b.js'], 'b.js': ['c.js'], 'c.js': ['a.js'] }))).toEqual([
      'a.js',
      'b.js',
      'c.js',
      'a.js',
    ]);
  });
});
