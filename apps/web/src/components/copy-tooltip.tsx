import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

/** The copy button's tooltip, in its own module: Tooltip brings the floating-ui positioning code (issue 16). */
export default function CopyTooltip({ label, opened, children }: { label: string; opened: boolean; children: ReactElement }) {
  return (
    <Tooltip label={label} opened={opened} withArrow>
      {children}
    </Tooltip>
  );
}
