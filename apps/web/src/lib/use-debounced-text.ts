import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router';
import { navigationPending } from './navigation-state';

/** Filter debounce (spec §9). */
export const FILTER_DEBOUNCE_MS = 300;

/**
 * A typed filter kept in the query string: the field follows the keyboard; `write` gets the trimmed value once typing
 * has stopped for 300 ms. What the query string holds (`applied`) comes back into the field when it changes from
 * elsewhere (back and forward, a clear button).
 *
 * A settled value is written only while no navigation is pending (the router's own state, see navigation-state.ts): a
 * link followed right after typing (a lazy screen still loading) would otherwise be replaced by the filter's own
 * navigation, and the click lost (issue 26). It is written once the navigation ends, unless the query string changed
 * meanwhile.
 */
export function useDebouncedText(applied: string, write: (value: string) => void) {
  const [input, setInput] = useState(applied);
  const [debounced] = useDebouncedValue(input.trim(), FILTER_DEBOUNCE_MS);
  const navigating = useNavigation().state !== 'idle';
  // What this hook last wrote (or read back), so that its own write coming back does not overwrite newer typing.
  const written = useRef(applied);
  // A settled value not written yet.
  const due = useRef<string | null>(null);

  useEffect(() => {
    due.current = debounced === written.current ? null : debounced;
  }, [debounced]);

  useEffect(() => {
    if (navigating || navigationPending() || due.current === null) return;
    const value = due.current;
    due.current = null;
    written.current = value;
    write(value);
    // Only when a typed value settles or a navigation ends: `write` changes with every URL change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced, navigating]);

  useEffect(() => {
    if (applied !== written.current) {
      written.current = applied;
      due.current = null;
      setInput(applied);
    }
  }, [applied]);

  return [input, setInput] as const;
}
