/**
 * Stands in for Mantine's `MantineCssVariables` in the build (vite.config.ts, leanMantineImports): the app renders
 * MantineProvider with `withCssVariables={false}` and ships the theme's variables as a stylesheet
 * (app/theme-variables.css), so the component, and the default theme's variables it computes as it loads, stay out.
 */
export function MantineCssVariables(): null {
  return null;
}
