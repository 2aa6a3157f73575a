import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { whenIdle } from './navigation-state';

/** Filter debounce (spec §9). */
export const FILTER_DEBOUNCE_MS = 300;

/**
 * A typed filter kept in the query string: the field follows the keyboard; `write` gets the trimmed value once typing
 * has stopped for 300 ms. What the query string holds (`applied`) comes back into the field when it changes from
 * elsewhere (back and forward, a clear button).
 *
 * A settled value is written only when no navigation is pending (the router's own state, see navigation-state.ts):
 * a link followed right after typing (a lazy screen still loading) would otherwise be replaced by the filter's own
 * navigation, and the click lost (issue 26). It waits for the navigation to end, and is dropped if that navigation
 * left the page (or the query string changed meanwhile). Two filters settling at once both land: the second waits
 * for the first one's navigation.
 */
export function useDebouncedText(applied: string, write: (value: string) => void) {
  const [input, setInput] = useState(applied);
  const [debounced] = useDebouncedValue(input.trim(), FILTER_DEBOUNCE_MS);
  // What this hook last wrote (or read back), so that its own write coming back does not overwrite newer typing.
  const written = useRef(applied);
  const writeRef = useRef(write);
  writeRef.current = write;

  useEffect(() => {
    // A value the field no longer holds is stale: the query string changed it meanwhile (Back, a clear button), and
    // writing it now would undo that change.
    if (debounced === written.current || debounced !== input.trim()) return;
    const page = window.location.pathname;
    return whenIdle(() => {
      if (window.location.pathname !== page || debounced === written.current) return;
      written.current = debounced;
      writeRef.current(debounced);
    });
    // Only when the typed value settles: `input` is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  useEffect(() => {
    if (applied !== written.current) {
      written.current = applied;
      setInput(applied);
    }
  }, [applied]);

  return [input, setInput] as const;
}
