import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/**
 * `useMergeRefs` of @floating-ui/react, for Mantine's ScrollArea only (vite.config.ts): ScrollArea, which every
 * Table imports, takes this one hook from floating-ui, and with it the whole positioning library into the first
 * load of every list (issue 16). Mantine's own hook does the same.
 */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
