import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Issue 45 item 3: no JSX attribute a person or a screen reader meets (aria-label, title, placeholder, alt, and
 * Mantine's label and description) holds a literal string: the lint rule tools/eslint/i18n-attributes.js, run here
 * through the repository's own ESLint configuration, so that the test also proves the rule is switched on for the web
 * app's files.
 */
const root = resolve(import.meta.dirname, '../../..');
const RULE = 'i18n/no-literal-attributes';
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === RULE });

async function reported(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, 'apps/web/src/app/layout/fixture.tsx') });
  return result!.messages.map(
    (message) => `${message.line}: ${message.message.replace(/^The `([^`]+)` attribute holds "([^"]*)".*$/, '$1=$2')}`,
  );
}

describe('literal text in spoken attributes (issue 45 item 3)', () => {
  it('reports the footer navigation as it was ("Programme links" stayed English in ja and es)', async () => {
    const footer = [
      "import { useTranslation } from 'react-i18next';",
      'export function Footer() {',
      '  const { t } = useTranslation();',
      '  return <nav aria-label="Programme links"><a href="/">{t(\'footer.website\')}</a></nav>;',
      '}',
    ].join('\n');
    expect(await reported(footer)).toEqual(['4: aria-label=Programme links']);
    expect(await reported(footer.replace('aria-label="Programme links"', "aria-label={t('footer.label')}"))).toEqual([]);
  });

  it('reports each attribute people meet, written as a literal, a template or a branch of a condition', async () => {
    const code = [
      "import { TextInput } from '@mantine/core';",
      'export function Form({ open, t }: { open: boolean; t: (key: string) => string }) {',
      '  return (',
      '    <div>',
      '      <img src="/a.png" alt="A logo" />',
      "      <button title={open ? t('close') : 'Open'} aria-label={`Close`}>x</button>",
      '      <TextInput label="Name" description={open && "Your name"} placeholder="https://" aria-description="More" />',
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    expect(await reported(code)).toEqual([
      '5: alt=A logo',
      '6: title=Open',
      '6: aria-label=Close',
      '7: label=Name',
      '7: description=Your name',
      '7: placeholder=https://',
      '7: aria-description=More',
    ]);
  });

  it('leaves translated text, names and strings without letters alone', async () => {
    const code = [
      "const FORMAT = 'YYYY-MM-DD HH:mm';",
      'export function Ok({ t, name }: { t: (key: string) => string; name: string }) {',
      '  return (',
      '    <div title={t(\'a\')} aria-label={name} data-label="not spoken" className="label">',
      '      <input placeholder={FORMAT} alt="" />',
      '      <span title="—" aria-label={`${name} · ${t(\'b\')}`} />',
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    expect(await reported(code)).toEqual([]);
  });

  // That nothing is left in apps/web/src is `npm run lint`'s to say: it runs this rule over every file.
});
