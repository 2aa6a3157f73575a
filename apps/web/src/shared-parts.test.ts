import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 26 item 17: parts every admin run and every paged list table share are drawn in one place, so a fix to one
 * (a label, a modal's behaviour, the loading row's accessibility) reaches all of them. These read the sources and
 * name each file that draws such a part again itself.
 */
const src = import.meta.dirname;
const adminComponents = join(src, 'features/admin/components');

function tsxUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxUnder(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}
const filesUsing = (files: string[], pattern: RegExp) =>
  files.filter((file) => pattern.test(readFileSync(file, 'utf8'))).map((file) => relative(src, file));

describe('shared parts (issue 26 item 17)', () => {
  it('only AdminRunControls draws the tail of an admin run: dry-run switch, progress, dry-run result, confirm and result modals', () => {
    const tail = /<(DryRunSwitch|RunProgress|DryRunResult|RunConfirmModal|RunResultModal)\b|useRunFlow\(/;
    const owners = ['admin-run-controls.tsx', 'run-controls.tsx'].map((name) => join(adminComponents, name));
    expect(filesUsing(tsxUnder(adminComponents), tail).sort()).toEqual(owners.map((file) => relative(src, file)));
    // Each run form, the Import Proposals one included, draws its tail through it.
    const runForms = filesUsing(tsxUnder(adminComponents), /<AdminRunControls\b/);
    expect(runForms).toEqual(
      expect.arrayContaining(
        [
          'import-proposals-form.tsx',
          'proposal-allocation-form.tsx',
          'moderation-allocation-form.tsx',
          'flags-runs.tsx',
          'review-outcomes-form.tsx',
          'proposal-scoring-form.tsx',
        ].map((name) => relative(src, join(adminComponents, name))),
      ),
    );
  });

  it("no list table draws its own loading row or 'No items found.' row: TableStatusRows does", () => {
    const tables = tsxUnder(join(src, 'features')).filter((file) => /-table\.tsx$/.test(file));
    expect(filesUsing(tables, /<TableStatusRows\b/)).toHaveLength(4);
    expect(filesUsing(tables, /t\('common\.loading'\)|<Loader\b/)).toEqual([]);
  });

  // Issue 45 item 11: the review's and the moderations' histories repeated the header and the who/when/action cells.
  it('only VersionsTable draws the version, when, who and action of a history; both histories use it', () => {
    const all = tsxUnder(src);
    expect(filesUsing(all, /history\.columns\.|history\.actions\./)).toEqual(['components/versions-table.tsx']);
    expect(filesUsing(all, /<VersionsTable\b/).sort()).toEqual([
      'features/moderation/components/moderation-versions.tsx',
      'features/reviews/components/review-versions.tsx',
    ]);
  });
});
