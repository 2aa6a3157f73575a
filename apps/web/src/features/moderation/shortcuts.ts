import { useEffect, useRef } from 'react';

/** The moderator's keys on the review page (issue 14 item 6); the help overlay lists them in this order. */
export const SHORTCUTS = [
  { action: 'next', keys: ['n', 'j'] },
  { action: 'previous', keys: ['p', 'k'] },
  { action: 'include', keys: ['a'] },
  { action: 'exclude', keys: ['x'] },
  { action: 'reason', keys: ['r'] },
  { action: 'save', keys: ['s'] },
  { action: 'help', keys: ['?'] },
] as const;
export type ShortcutAction = (typeof SHORTCUTS)[number]['action'];

const CHOICE_INPUTS = new Set(['radio', 'checkbox', 'button', 'submit', 'reset']);

/** True when a key pressed on `target` is typing: text fields, selects and editable content never fire a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !CHOICE_INPUTS.has(target.type);
  return target.getAttribute('role') === 'combobox' || target.getAttribute('role') === 'textbox';
}

/** The action a key press asks for, or null (modifier chords, repeats and typing never count). */
export function shortcutFor(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): ShortcutAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return SHORTCUTS.find((shortcut) => (shortcut.keys as readonly string[]).includes(key))?.action ?? null;
}

/** Listens on the document while mounted; `handlers` may change every render. */
export function useShortcuts(handlers: Partial<Record<ShortcutAction, () => void>>, enabled = true) {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const action = shortcutFor(event);
      const handler = action ? current.current[action] : undefined;
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
}
