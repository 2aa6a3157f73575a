import { beforeAll, describe, expect, it } from 'vitest';
import i18n, { loadMoreStrings } from '../lib/i18n';
import { MULTI_SELECT_LIMIT, multiSelectMessages, type MessageKey } from './app-multi-select';

const text = (message: MessageKey | undefined) => (message ? i18n.t(message.key, message.values) : undefined);

describe('multi-select messages (spec §8, §9)', () => {
  // The forms' strings load with their pages (issue 16).
  beforeAll(() => loadMoreStrings());

  it('shows up to 1000 options (A-142)', () => {
    expect(MULTI_SELECT_LIMIT).toBe(1000);
  });

  it("shows 'No elements found. Consider changing the search query.' when the search matches nothing (A-143)", () => {
    const messages = multiSelectMessages({ data: ['a', 'b'], value: [], maxValues: undefined });
    expect(text(messages.nothingFound)).toBe('No elements found. Consider changing the search query.');
    const items = multiSelectMessages({ data: [{ value: '1', label: 'One' }] });
    expect(text(items.nothingFound)).toBe('No elements found. Consider changing the search query.');
  });

  it("shows 'List is empty.' when there are no options (A-144)", () => {
    expect(text(multiSelectMessages({ data: [] }).nothingFound)).toBe('List is empty.');
    expect(text(multiSelectMessages({ data: undefined }).nothingFound)).toBe('List is empty.');
    expect(text(multiSelectMessages({ data: [], value: ['x'], maxValues: 3 }).nothingFound)).toBe('List is empty.');
  });

  it("shows 'Maximum of {n} options selected…' once the selection is at its maximum (A-145)", () => {
    const atMax = multiSelectMessages({ data: ['a', 'b', 'c'], value: ['a', 'b'], maxValues: 2 });
    expect(text(atMax.description)).toBe('Maximum of 2 options selected. First remove a selected option to select another.');
    const over = multiSelectMessages({ data: ['a', 'b', 'c'], value: ['a', 'b', 'c'], maxValues: 2 });
    expect(text(over.description)).toBe('Maximum of 2 options selected. First remove a selected option to select another.');
  });

  it('keeps the own description below the maximum or without one (A-145)', () => {
    expect(multiSelectMessages({ data: ['a', 'b'], value: ['a'], maxValues: 2 }).description).toBeUndefined();
    expect(multiSelectMessages({ data: ['a', 'b'], value: undefined, maxValues: 1 }).description).toBeUndefined();
    expect(multiSelectMessages({ data: ['a', 'b'], value: ['a', 'b'] }).description).toBeUndefined();
  });

  it('treats a maximum of 0 as reached at once (A-145)', () => {
    expect(text(multiSelectMessages({ data: ['a'], value: [], maxValues: 0 }).description)).toBe(
      'Maximum of 0 options selected. First remove a selected option to select another.',
    );
  });
});
