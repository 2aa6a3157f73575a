import { describe, expect, it } from 'vitest';
import { leanMantineStyles, withoutUnusedRules } from '../vite.config';

/**
 * Issue 30 item 5: the build leaves out the rules of Mantine components the app never renders (vite.config.ts
 * `leanMantineStyles`), from the classes the first build pass found in the app's code.
 */
describe('Mantine’s stylesheet without the unused components', () => {
  const css = [
    ':root { --mantine-scale: 1; }',
    'body { margin: 0; }',
    '.m_aaaa1111 { color: red; }',
    '.m_bbbb2222 { color: blue; }',
    '.m_aaaa1111 .m_bbbb2222, .m_aaaa1111:where([data-x]) { padding: 0; }',
    '.m_bbbb2222:hover, .m_cccc3333 { margin: 0; }',
    '@media (min-width: 48em) { .m_bbbb2222 { display: none; } }',
    '@media (min-width: 62em) { .m_aaaa1111 { display: block; } }',
    '@keyframes m_dddd4444 { from { opacity: 0; } to { opacity: 1; } }',
    '.mantine-focus-auto:focus-visible { outline: 1px solid; }',
  ].join('\n');
  const out = withoutUnusedRules(css, new Set(['m_aaaa1111', 'm_cccc3333']));

  it('keeps the rules of used components, global rules, variables and keyframes, in their order', () => {
    expect(out).toContain(':root { --mantine-scale: 1; }');
    expect(out).toContain('body { margin: 0; }');
    expect(out).toContain('.m_aaaa1111 { color: red; }');
    expect(out).toContain('@media (min-width: 62em) { .m_aaaa1111 { display: block; } }');
    expect(out).toContain('@keyframes m_dddd4444');
    expect(out).toContain('.mantine-focus-auto:focus-visible');
    expect(out.indexOf('body')).toBeLessThan(out.indexOf('.m_aaaa1111 { color: red; }'));
  });

  it('drops the selectors naming an unused class, the rules and media queries left empty', () => {
    expect(out).not.toContain('m_bbbb2222');
    expect(out).toContain('.m_aaaa1111:where([data-x]) { padding: 0; }');
    expect(out).toContain('.m_cccc3333 { margin: 0; }');
    expect(out).not.toContain('48em');
  });

  it('leaves the stylesheet whole without the first pass’s list, and touches only Mantine’s stylesheets', () => {
    const transform = (used?: Set<string>) =>
      leanMantineStyles(used).transform as unknown as (code: string, id: string) => { code: string } | null;
    expect(transform(undefined)(css, '/x/node_modules/@mantine/core/styles.css')).toBeNull();
    expect(transform(new Set())(css, '/x/src/styles.css')).toBeNull();
    expect(transform(new Set(['m_aaaa1111']))(css, '/x/node_modules/@mantine/dates/styles.css')!.code).not.toContain('m_bbbb2222');
  });
});
