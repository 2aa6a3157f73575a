import type { ButtonProps } from '@mantine/core';
import { IconChevronDown, IconUserCircle } from '@tabler/icons-react';

/** The account menu's button (the wide bar): its look, shared by the menu and the placeholder shown while it loads. */
export const accountButtonProps = {
  variant: 'subtle',
  size: 'xs',
  px: 6,
  rightSection: <IconChevronDown size={14} />,
} satisfies ButtonProps;

export function AccountButtonContent() {
  return <IconUserCircle size={20} />;
}
