import { describe, expect, it } from 'vitest';
import { withGaps } from './histogram-data';
import { categoryTitlesOf, readImportFile } from './import-file';

const file = {
  format: 'catalyst-voices-proposals/1',
  categories: { 'cat-a': 'Cardano Open: Developers', 'cat-b': 'midnight: compact dapps' },
  templates: {
    t1: { category: 'cat-a', schema: { title: 'F15 Cardano Open: Developers Form' } },
    t2: { category: 'cat-c', schema: { title: 'F15 Cardano Use Cases: Prototype & Launch Form' } },
    t3: { category: null, schema: { title: 'Generic' } },
  },
  documents: [{ id: 'doc-1', template: 't1', payload: { setup: { title: { title: 'One' } } } }],
};

describe('reading an import file in the browser (Import Proposals, D-046)', () => {
  it('answers the JSON as it is and its category titles: named ones and the template titles of the rest', () => {
    const read = readImportFile(JSON.stringify(file));
    expect(read).toEqual({
      ok: true,
      content: file,
      categories: ['Cardano Open: Developers', 'Cardano Use Cases: Prototype & Launch', 'midnight: compact dapps'],
    });
  });

  it('lists a title once regardless of case', () => {
    const parsed = {
      ...file,
      categories: { 'cat-a': 'Midnight: Compact DApps', 'cat-b': 'midnight: compact dapps' },
      templates: {},
    } as any;
    expect(categoryTitlesOf(parsed)).toEqual(['Midnight: Compact DApps']);
  });

  it('says when the text is not JSON', () => {
    expect(readImportFile('name,title\n1,a')).toEqual({ ok: false, error: 'notJson' });
  });

  it('says when JSON is not a proposals file, naming the first problem', () => {
    const read = readImportFile(JSON.stringify({ hello: 'world' }));
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.error).toBe('notProposals');
    expect(read.ok ? '' : read.detail).toMatch(/^format: /);
  });
});

describe('histogram bars', () => {
  it('fills the values missing between the smallest and the largest with zero bars', () => {
    expect(
      withGaps([
        [4, 2],
        [1, 5],
      ]),
    ).toEqual([
      [1, 5],
      [2, 0],
      [3, 0],
      [4, 2],
    ]);
    expect(withGaps([])).toEqual([]);
  });

  it('leaves a very wide range as it is', () => {
    expect(
      withGaps([
        [0, 1],
        [1000, 1],
      ]),
    ).toEqual([
      [0, 1],
      [1000, 1],
    ]);
  });
});
