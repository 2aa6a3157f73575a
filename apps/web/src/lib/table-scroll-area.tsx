import type { ReactNode } from 'react';

/**
 * What Mantine's `Table.ScrollContainer` gets for `ScrollArea` (vite.config.ts): a plain scrolling box. The app does
 * not use `Table.ScrollContainer` (lists scroll sideways in components/scroll-table.tsx), but Table imports it, and
 * with it ScrollArea, into the first load of every list (issue 16).
 */
export function ScrollArea({ children, ...props }: { children?: ReactNode; [prop: string]: unknown }) {
  const { className, style } = props as { className?: string; style?: React.CSSProperties };
  return (
    <div className={className} style={{ overflow: 'auto', ...style }}>
      {children}
    </div>
  );
}
