import { levelLabel } from '@cr/contract/plain';
import type { CSSProperties, HTMLAttributes, ReactNode, TableHTMLAttributes } from 'react';
import classes from './plain.module.css';

/**
 * The hot list rows and cards as plain semantic elements, styled by plain.module.css through Mantine's public theme
 * variables (issue 46 item 4). A Mantine component is a tree of components (Box, its props, its styles) that costs
 * ~0.3 ms to mount on a desktop, four times that on a phone, and a page of 25 rows mounted ~300 of them. The frame,
 * forms and overlays stay Mantine components; no module here names Mantine's internal classes or variables
 * (import-boundaries.test.ts).
 */

/** A link as the lists show it: the theme's link colour, underlined on hover. */
export const LINK_CLASS = classes.link;
/** A body row of a striped table with row borders, highlighted under the pointer, and its cells. */
export const ROW_CLASS = classes.row;
export const CELL_CLASS = classes.cell;
/** A list's card on narrow screens. */
export const CARD_CLASS = classes.card;
/** A small subtle icon button (gray; teal with `data-copied`). */
export const ICON_BUTTON_CLASS = classes.iconButton;

interface PlainTableProps extends TableHTMLAttributes<HTMLTableElement> {
  /** Columns of the widths the header cells give them, not of their content's. */
  fixed?: boolean;
  /** Rows of one line each, without borders (a small key-value table). */
  compact?: boolean;
  /** A bordered key-value table: each row a label (th) and its value. */
  vertical?: boolean;
}

/** A list's table: the theme's small text, a line below the header; its rows are `ROW_CLASS` rows of `CELL_CLASS` cells. */
export function PlainTable({ fixed = false, compact = false, vertical = false, className, style, ...rest }: PlainTableProps) {
  return (
    <table
      className={joined(classes.table, compact ? classes.compact : undefined, vertical ? classes.vertical : undefined, className)}
      style={fixed ? { tableLayout: 'fixed', ...style } : style}
      {...rest}
    />
  );
}

/** A theme font size and its line height, as style. */
export const textSize = (size: 'xs' | 'sm' | 'md'): CSSProperties => ({
  fontSize: `var(--mantine-font-size-${size})`,
  lineHeight: `var(--mantine-line-height-${size})`,
});

type Spacing = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
/** A theme spacing, or pixels. */
const spacing = (gap: Spacing | number) => (typeof gap === 'number' ? `${gap}px` : `var(--mantine-spacing-${gap})`);
const joined = (...names: (string | undefined)[]) => names.filter(Boolean).join(' ');
type DataAttributes = { [data: `data-${string}`]: string | undefined };

interface PlainGroupProps extends HTMLAttributes<HTMLElement>, DataAttributes {
  gap?: Spacing | number;
  justify?: CSSProperties['justifyContent'];
  align?: CSSProperties['alignItems'];
  wrap?: 'wrap' | 'nowrap';
}

/** A flex row. */
export function PlainGroup({ gap = 'md', justify, align, wrap, className, style, ...rest }: PlainGroupProps) {
  const layout: CSSProperties = { gap: spacing(gap), justifyContent: justify, alignItems: align, flexWrap: wrap };
  return <div className={joined(classes.group, className)} style={{ ...layout, ...style }} {...rest} />;
}

interface PlainStackProps extends HTMLAttributes<HTMLElement>, DataAttributes {
  gap: Spacing | number;
  component?: 'div' | 'section';
}

/** A flex column; for a proposal's many fields. */
export function PlainStack({ gap, component: Element = 'div', className, style, ...rest }: PlainStackProps) {
  return <Element className={joined(classes.stack, className)} style={{ gap: spacing(gap), ...style }} {...rest} />;
}

interface PlainPaperProps extends HTMLAttributes<HTMLElement>, DataAttributes {
  radius: 'sm' | 'md';
  padding: Spacing;
  component?: 'div' | 'section';
}

/** A bordered box of a theme radius and padding. */
export function PlainPaper({ radius, padding, component: Element = 'div', className, style, ...rest }: PlainPaperProps) {
  const box: CSSProperties = { borderRadius: `var(--mantine-radius-${radius})`, padding: spacing(padding) };
  return <Element className={joined(classes.paper, className)} style={{ ...box, ...style }} {...rest} />;
}

/** A paragraph of the theme's small text. */
export function PlainTextSm({ className, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={joined(classes.textSm, className)} {...rest} />;
}

interface PlainBadgeProps extends HTMLAttributes<HTMLDivElement>, DataAttributes {
  /** A theme colour's name. */
  color: string;
  variant: 'light' | 'outline';
  size?: 'sm' | 'md' | 'lg';
  children: ReactNode;
}

/**
 * A badge of the light or outline variant, in a theme colour (its public `-light`, `-light-color` and `-outline` shades).
 * `plain-badge` and `plain-badge-label` name its parts for tests and the app's stylesheet, as Mantine's static classes do.
 */
export function PlainBadge({ color, variant, size = 'md', children, style, className, ...rest }: PlainBadgeProps) {
  const colours: CSSProperties =
    variant === 'light'
      ? { background: `var(--mantine-color-${color}-light)`, color: `var(--mantine-color-${color}-light-color)` }
      : { color: `var(--mantine-color-${color}-outline)`, borderColor: `var(--mantine-color-${color}-outline)` };
  const sized = size === 'sm' ? classes.badgeSm : size === 'lg' ? classes.badgeLg : undefined;
  return (
    <div className={joined('plain-badge', classes.badge, sized, className)} style={{ ...colours, ...style }} {...rest}>
      <span className={joined('plain-badge-label', classes.badgeLabel)}>{children}</span>
    </div>
  );
}

/** The assessor as shown everywhere: anonymous id and level 'LV'+number (spec §4), in the reviews' and the moderator's lists. */
export function AssessorLabel({ assessor, level }: { assessor: string; level: number }) {
  return (
    <div className="plain-row" style={{ gap: '6px' }}>
      <p className="plain-text-sm plain-mono">{assessor}</p>
      <PlainBadge size="sm" variant="outline" color="gray" style={{ minWidth: 'max-content' }}>
        {levelLabel(level)}
      </PlainBadge>
    </div>
  );
}
