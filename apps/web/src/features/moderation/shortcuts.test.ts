import { describe, expect, it } from 'vitest';
import { SHORTCUTS, shortcutFor } from './shortcuts';

const press = (key: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) =>
  shortcutFor({ key, ctrlKey: false, metaKey: false, altKey: false, target: null, ...modifiers });

describe('moderator shortcuts (issue 14 item 6)', () => {
  it('maps each listed key to its action, case-insensitively', () => {
    for (const shortcut of SHORTCUTS) for (const key of shortcut.keys) expect(press(key)).toBe(shortcut.action);
    expect(press('A')).toBe('include');
    expect(press('?')).toBe('help');
  });
  it('ignores other keys and chords with ctrl, meta or alt (the browser keeps its own)', () => {
    expect(press('q')).toBeNull();
    expect(press('Enter')).toBeNull();
    expect(press('s', { ctrlKey: true })).toBeNull();
    expect(press('n', { metaKey: true })).toBeNull();
    expect(press('x', { altKey: true })).toBeNull();
  });
});
