import { Box, Text } from '@mantine/core';
import { IconArrowsHorizontal } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ScrollTableProps {
  /** The table's own width: narrower windows scroll it sideways. */
  minWidth: number;
  /** Named for the keyboard user who focuses the scrolling box. */
  label: string;
  /** Keeps the first column in view while the rest scrolls (an id that opens the row). */
  stickyFirstColumn?: boolean;
  children: ReactNode;
}

/**
 * A table that scrolls sideways when the window is narrower than it, saying so (issue 19): a line above it with an
 * arrow and a shade on the edge that hides columns. The box is focusable only while it scrolls, so a keyboard can too.
 */
export function ScrollTable({ minWidth, label, stickyFirstColumn = false, children }: ScrollTableProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ left: false, right: false });
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const update = () => {
      const left = element.scrollLeft > 1;
      const right = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setOverflow((previous) => (previous.left === left && previous.right === right ? previous : { left, right }));
    };
    // No first reading here: reading the widths in the effect forced a layout of the page in the middle of its first
    // render (issue 30 item 5: ~25 ms on a phone's profile). The observer reports the box once it is laid out anyway.
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);
  const scrolls = overflow.left || overflow.right;
  return (
    <Box>
      {scrolls && (
        <Text size="xs" c="dimmed" mb={4} data-testid="scroll-cue" style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <IconArrowsHorizontal size={14} aria-hidden />
          {t('common.scrollSideways')}
        </Text>
      )}
      <Box className="scroll-table-frame" data-shade-left={overflow.left || undefined} data-shade-right={overflow.right || undefined}>
        <Box
          ref={box}
          className="scroll-table"
          data-sticky-first={stickyFirstColumn || undefined}
          role={scrolls ? 'region' : undefined}
          aria-label={scrolls ? label : undefined}
          tabIndex={scrolls ? 0 : undefined}
        >
          <Box miw={minWidth}>{children}</Box>
        </Box>
      </Box>
    </Box>
  );
}
