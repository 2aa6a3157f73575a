import { ActionIcon, Anchor, Badge, Container, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { levelLabel } from '@cr/contract/plain';
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

/**
 * Mantine's own class names, for the parts of list rows rendered as plain elements (issue 30 item 5). A Mantine
 * component is a tree of components (Box, its props, styles and variables) that costs ~0.3 ms to mount on a desktop,
 * four times that on a phone; a page of 25 rows mounted ~300 of them. Rows render plain elements with the classes
 * Mantine would give them, so they look the same and Mantine's stylesheet styles them.
 */

/** An Anchor as Mantine renders it (underlined on hover): put `data-underline="hover"` beside it. */
export const ANCHOR_CLASS = `mantine-focus-auto ${Text.classes.root} mantine-Text-root ${Anchor.classes.root} mantine-Anchor-root`;

/** A Text (its size from `--text-fz`/`--text-lh`, as `textSize` gives them). */
export const TEXT_CLASS = `${Text.classes.root} mantine-Text-root`;
export const textSize = (size: 'xs' | 'sm' | 'md') =>
  ({ '--text-fz': `var(--mantine-font-size-${size})`, '--text-lh': `var(--mantine-line-height-${size})` }) as CSSProperties;
const CONTAINER_CLASS = `${Container.classes.root} mantine-Container-root`;
const GROUP_CLASS = `${Group.classes.root} mantine-Group-root`;

type Spacing = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
/** A theme spacing, or pixels, as Mantine writes it in a variable. */
const spacing = (gap: Spacing | number) =>
  typeof gap === 'number' ? `calc(${gap / 16}rem * var(--mantine-scale))` : `var(--mantine-spacing-${gap})`;
interface PlainGroupProps extends HTMLAttributes<HTMLElement> {
  gap?: Spacing | number;
  justify?: CSSProperties['justifyContent'];
  align?: CSSProperties['alignItems'];
  wrap?: 'wrap' | 'nowrap';
  component?: 'div' | 'nav';
}

/** A Group (a flex row) with the variables Mantine's Group gives it; for the frame's bars (app/layout). */
export function PlainGroup({
  gap = 'md',
  justify = 'flex-start',
  align = 'center',
  wrap = 'wrap',
  component: Element = 'div',
  style,
  ...rest
}: PlainGroupProps) {
  const variables = {
    '--group-gap': spacing(gap),
    '--group-align': align,
    '--group-justify': justify,
    '--group-wrap': wrap,
  } as CSSProperties;
  return <Element className={GROUP_CLASS} style={{ ...variables, ...style }} {...rest} />;
}

/** A Container of one of the theme's sizes. */
export function PlainContainer({ size, children }: { size: 'lg' | 'xl'; children: ReactNode }) {
  return (
    <div
      className={CONTAINER_CLASS}
      data-strategy="block"
      data-size={size}
      style={{ '--container-size': `var(--container-size-${size})` } as CSSProperties}
    >
      {children}
    </div>
  );
}

const STACK_CLASS = `${Stack.classes.root} mantine-Stack-root`;
const PAPER_CLASS = `${Paper.classes.root} mantine-Paper-root`;

interface PlainStackProps extends HTMLAttributes<HTMLElement> {
  gap: Spacing | number;
  component?: 'div' | 'section';
  [data: `data-${string}`]: string | undefined;
}

/** A Stack (a flex column) with the variables Mantine's Stack gives it; for a proposal's many fields. */
export function PlainStack({ gap, component: Element = 'div', className, style, ...rest }: PlainStackProps) {
  const variables = { '--stack-gap': spacing(gap), '--stack-align': 'stretch', '--stack-justify': 'flex-start' } as CSSProperties;
  return <Element className={className ? `${className} ${STACK_CLASS}` : STACK_CLASS} style={{ ...variables, ...style }} {...rest} />;
}

interface PlainPaperProps extends HTMLAttributes<HTMLElement> {
  radius: 'sm' | 'md';
  padding: Spacing;
  component?: 'div' | 'section';
  [data: `data-${string}`]: string | undefined;
}

/** A Paper with a border, of a theme radius and padding. */
export function PlainPaper({ radius, padding, component: Element = 'div', className, style, ...rest }: PlainPaperProps) {
  const variables = { '--paper-radius': `var(--mantine-radius-${radius})`, padding: spacing(padding) } as CSSProperties;
  return (
    <Element
      data-with-border="true"
      className={className ? `${className} ${PAPER_CLASS}` : PAPER_CLASS}
      style={{ ...variables, ...style }}
      {...rest}
    />
  );
}

/** A small Text's paragraph (`<Text size="sm">`): the stylesheet's `.plain-text-sm`, as the lists' rows use it. */
export function PlainTextSm(props: HTMLAttributes<HTMLParagraphElement>) {
  return <p className="plain-text-sm" {...props} />;
}

/** A body row of a `striped highlightOnHover` table with row borders, and its cells. */
export const TABLE_ROW_PROPS = {
  className: `${Table.classes.tr} mantine-Table-tr`,
  'data-with-row-border': true,
  'data-striped': 'odd',
  'data-hover': true,
} as const;
export const TABLE_CELL_CLASS = `${Table.classes.td} mantine-Table-td`;

/** A Paper with a border (the list's cards): the radius and padding come from `.plain-card` (styles.css). */
export const CARD_CLASS = `${Paper.classes.root} mantine-Paper-root plain-card`;

/** A subtle ActionIcon (its colour from `--ai-*` variables, see copy-button.tsx). */
export const ACTION_ICON_CLASS = `mantine-focus-auto mantine-active ${ActionIcon.classes.root} mantine-ActionIcon-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`;
export const ACTION_ICON_ICON_CLASS = `${ActionIcon.classes.icon} mantine-ActionIcon-icon`;

const BADGE_ROOT_CLASS = `${Badge.classes.root} mantine-Badge-root`;
const BADGE_LABEL_CLASS = `${Badge.classes.label} mantine-Badge-label`;

interface PlainBadgeProps extends HTMLAttributes<HTMLDivElement> {
  color: string;
  variant: 'light' | 'outline';
  size?: 'sm' | 'md' | 'lg';
  children: ReactNode;
  [data: `data-${string}`]: string | undefined;
}

/** A Badge of the light or outline variant, with the variables Mantine's variant resolver gives it. */
export function PlainBadge({ color, variant, size = 'md', children, style, className, ...rest }: PlainBadgeProps) {
  // md is the stylesheet's default: not set here, so that a class can change it (the stage badge on phones).
  const sizes: Record<string, string> =
    size === 'md'
      ? {}
      : {
          '--badge-height': `var(--badge-height-${size})`,
          '--badge-padding-x': `var(--badge-padding-x-${size})`,
          '--badge-fz': `var(--badge-fz-${size})`,
        };
  const variables = {
    ...sizes,
    '--badge-bg': variant === 'light' ? `var(--mantine-color-${color}-light)` : 'transparent',
    '--badge-color': `var(--mantine-color-${color}-${variant === 'light' ? 'light-color' : 'outline'})`,
    '--badge-bd': `calc(0.0625rem * var(--mantine-scale)) solid ${variant === 'light' ? 'transparent' : `var(--mantine-color-${color}-outline)`}`,
  } as CSSProperties;
  return (
    <div
      data-variant={variant}
      data-size={size}
      className={className ? `${BADGE_ROOT_CLASS} ${className}` : BADGE_ROOT_CLASS}
      style={{ ...variables, ...style }}
      {...rest}
    >
      <span className={BADGE_LABEL_CLASS}>{children}</span>
    </div>
  );
}

/** The assessor as shown everywhere: anonymous id and level 'LV'+number (spec §4), in the reviews' and the moderator's lists. */
export function AssessorLabel({ assessor, level }: { assessor: string; level: number }) {
  return (
    <div className="plain-row" style={{ gap: 'calc(0.375rem * var(--mantine-scale))' }}>
      <p className="plain-text-sm plain-mono">{assessor}</p>
      <PlainBadge size="sm" variant="outline" color="gray" style={{ minWidth: 'max-content' }}>
        {levelLabel(level)}
      </PlainBadge>
    </div>
  );
}
