import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_THEME,
  convertCssVariables,
  defaultCssVariablesResolver,
  mergeMantineTheme,
  type ConvertCSSVariablesInput,
} from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

const file = fileURLToPath(new URL('./theme-variables.css', import.meta.url));
const HEADER = `/*
 * The theme's CSS variables (app/theme.ts): what MantineProvider would compute and inject on every start, as a
 * stylesheet (issue 30 item 5). Written by app/theme-variables.test.ts: after changing the theme, run
 * UPDATE_THEME_CSS=1 npx vitest run apps/web/src/app/theme-variables.test.ts
 */
`;

/** The variables MantineProvider writes for this theme: its own resolver's and ours, less those of its stylesheet. */
function themeCss(): string {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const ours = cssVariablesResolver(merged);
  const all = defaultCssVariablesResolver(merged);
  const defaults = defaultCssVariablesResolver(DEFAULT_THEME);
  const kept = {} as ConvertCSSVariablesInput;
  for (const part of ['variables', 'light', 'dark'] as const) {
    const values = { ...all[part], ...ours[part] };
    const before: Record<string, string> = defaults[part];
    kept[part] = Object.fromEntries(Object.entries(values).filter(([key, value]) => before[key] !== value));
  }
  return `${HEADER}${convertCssVariables(kept, ':root')
    .replace(/([{;])/g, '$1\n  ')
    .replace(/\s*}/g, '\n}\n')}`;
}

describe('the theme stylesheet (issue 30 item 5)', () => {
  it('holds exactly the CSS variables MantineProvider would inject for the theme', () => {
    const expected = themeCss();
    if (process.env.UPDATE_THEME_CSS === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8'), 'run UPDATE_THEME_CSS=1 npx vitest run apps/web/src/app/theme-variables.test.ts').toBe(expected);
  });

  it('sets the brand colour, the darker shades and the dimmed text the contrast checks rely on', () => {
    const css = readFileSync(file, 'utf8');
    expect(css).toContain('--mantine-primary-color-filled: var(--mantine-color-brand-filled)');
    expect(css).toContain('--mantine-color-brand-8: #3a50c9');
    expect(css).toContain('--mantine-color-red-9: #a51d1d');
    expect(css).toContain('--mantine-color-dimmed: var(--mantine-color-gray-7)');
    expect(css).toContain('--mantine-radius-default');
  });
});
