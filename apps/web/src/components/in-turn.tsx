import { useEffect, useState, type ReactNode } from 'react';
import { inTurn } from '../lib/in-turn';

/**
 * Its children, mounted in a turn of their own after the page's first render (lib/in-turn.ts), one such part a turn:
 * for the parts of a long page below its first screen (issue 30 item 5: the profile mounted its nine sections and
 * their forms in one task of ~300 ms on a desktop). Until then, nothing.
 */
export function InTurn({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => (ready ? undefined : inTurn(() => setReady(true), { alone: true })), [ready]);
  return ready ? children : null;
}
