import { DEFAULT_THEME, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import i18n from '../lib/i18n';

/**
 * An indigo whose shade 8, the primary shade (filled buttons, links, light variants of every colour), keeps a 4.5:1
 * contrast against white (WCAG AA).
 */
const brand: MantineColorsTuple = [
  '#eef0fd',
  '#dde2fb',
  '#c3cbf6',
  '#a3b0f1',
  '#8597ee',
  '#6a7feb',
  '#5468e2',
  '#4659d6',
  '#3a50c9',
  '#2d3fa6',
];

/** Mantine's palette with shades 8 and 9 darkened where the stock shade falls below 4.5:1 on white or on its light tint. */
function darker(name: keyof typeof DEFAULT_THEME.colors, shade8: string, shade9: string): MantineColorsTuple {
  const [c0, c1, c2, c3, c4, c5, c6, c7] = DEFAULT_THEME.colors[name] ?? DEFAULT_THEME.colors.gray!;
  return [c0, c1, c2, c3, c4, c5, c6, c7, shade8, shade9];
}

/**
 * Dimmed text and error messages darker than Mantine's defaults, for the same contrast. Written, with the colours
 * above, into theme-variables.css by theme-variables.test.ts, which fails when the two differ (issue 30 item 5:
 * MantineProvider computed and injected them on every start, ~30 ms of a desktop's first render).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

export const theme = createTheme({
  colors: {
    brand,
    green: darker('green', '#1a6e2e', '#145a25'),
    teal: darker('teal', '#087563', '#065a4c'),
    red: darker('red', '#c92a2a', '#a51d1d'),
    orange: darker('orange', '#b34a06', '#8f3a04'),
    yellow: darker('yellow', '#8a6100', '#704f00'),
  },
  primaryColor: 'brand',
  primaryShade: 8,
  respectReducedMotion: true,
  components: {
    // Close buttons of dialogs carry a name (axe 'button-name').
    // Plain objects, not Modal.extend(): the theme must not pull the dialogs into every page's first load (issue 16).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
    Notification: { styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
    // A closed select's options are not rendered (Mantine keeps them mounted by default): a mounted dropdown is
    // positioned by floating-ui as the page renders, each time forcing a style and layout pass (issue 30 item 5: on
    // /reviews three filters cost ~70 ms of a desktop's first render). The input names its list only while open.
    Combobox: { defaultProps: { keepMounted: false } },
  },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});
