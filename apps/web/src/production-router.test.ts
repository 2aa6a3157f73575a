import { describe, expect, it } from 'vitest';
import { productionRouter } from '../vite.config';

/**
 * Issue 30 item 5: the build bundles React Router's production build (vite.config.ts `productionRouter`), which the
 * package's exports do not name. It must exist and offer what the development build the app is written against does.
 */
describe('React Router in the build', () => {
  const resolveId = productionRouter().resolveId as (source: string) => string | null;

  it('resolves react-router to its production build, with the same exports as the development build', async () => {
    const production = resolveId('react-router');
    expect(production).toMatch(/react-router[/\\]dist[/\\]production[/\\]index\.mjs$/);
    const [built, development] = await Promise.all([
      import(/* @vite-ignore */ production!) as Promise<Record<string, unknown>>,
      import('react-router') as Promise<Record<string, unknown>>,
    ]);
    expect(Object.keys(built).sort()).toEqual(Object.keys(development).sort());
    expect(Object.keys(built)).toContain('createBrowserRouter');
  });

  it('leaves every other import to the normal resolution', () => {
    expect(resolveId('react-router-dom')).toBeNull();
    expect(resolveId('react')).toBeNull();
  });
});
