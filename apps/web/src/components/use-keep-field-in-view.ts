import { useEffect, type RefObject } from 'react';

/** The field around the focused control: its label, the control and the live count below it. */
function focusedField(root: HTMLElement): HTMLElement | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active)) return null;
  if (!active.matches('input, textarea, select')) return null;
  return active.closest<HTMLElement>('.mantine-InputWrapper-root') ?? active;
}

/**
 * Keeps the field being typed in, with its live count, in view above a phone's keyboard and the form's sticky action
 * bar (issue 19 item 3): on focus, while typing (an autosized note grows) and when the keyboard resizes the visible
 * viewport. `scroll-margin-bottom` in styles.css leaves room for the action bar.
 */
export function useKeepFieldInView(root: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const reveal = () => focusedField(element)?.scrollIntoView({ block: 'nearest' });
    // The keyboard opens after the focus: reveal again once it has taken its room.
    const viewport = window.visualViewport;
    element.addEventListener('focusin', reveal);
    element.addEventListener('input', reveal);
    viewport?.addEventListener('resize', reveal);
    return () => {
      element.removeEventListener('focusin', reveal);
      element.removeEventListener('input', reveal);
      viewport?.removeEventListener('resize', reveal);
    };
  }, [root]);
}
