import { Box, Group, Stack, Text, useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { memo, useDeferredValue, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingLine } from './loading-line';
import { CARD_CLASS } from './plain';

/**
 * Whether the window is narrower than a breakpoint (Mantine's `sm` = 768 px by default). Read at the first render, so
 * that a list never mounts once as a table and then again as cards.
 */
export function useIsNarrow(breakpoint: MantineBreakpoint = 'sm') {
  const theme = useMantineTheme();
  const isWide = useMediaQuery(`(min-width: ${theme.breakpoints[breakpoint]})`, true, { getInitialValueInEffect: false });
  return !isWide;
}

interface ResponsiveListProps<Row> {
  rows: Row[];
  /** The list's accessible name: the table's on wide screens, the card list's on narrow ones. */
  label: string;
  isLoading: boolean;
  isFetching?: boolean | undefined;
  rowKey: (row: Row) => Key;
  /**
   * The table as wide screens show it, of the rows to show now (see useDeferredRows) and whether more are coming
   * (the table then says it is busy); called only on wide screens.
   */
  table: (rows: Row[], filling: boolean) => ReactNode;
  /** One row as a compact card: what a person needs first, then the action. */
  card: (row: Row) => ReactNode;
  /** Below this width the rows show as cards (issue 19). */
  breakpoint?: MantineBreakpoint | undefined;
  /**
   * Rows whose height the list keeps while its first page loads (its page size), so that what follows it (the pager,
   * the footer) does not move down when the rows arrive (issue 16: no layout shift).
   */
  reserveRows?: number | undefined;
}

/**
 * The least height of a table row and of a card, in pixels (one line of text: a row of `verticalSpacing="sm"` with a
 * copy button measures 45 px, a card with a one-line title 130 px), and of the table's header: what a loading list
 * reserves never exceeds what its rows take, so the rows only ever push the pager further down, out of view.
 */
const RESERVED = { row: 40, header: 40, card: 110 };

/** The height a loading list keeps for `rows` rows: what a page of rows takes at least. */
export function reservedHeight(rows: number, narrow: boolean) {
  if (rows <= 0) return undefined;
  return narrow ? rows * RESERVED.card : RESERVED.header + rows * RESERVED.row;
}

const NO_ROWS: never[] = [];

/**
 * A page of rows rendered in React's background pass (`useDeferredValue`): the rows shown until then are the ones
 * before (none on the first page), and React renders the new ones a few components at a time, answering input between
 * them, instead of in one task (a page of 25 rows of Mantine components took 100–150 ms on a desktop, four times that
 * on a phone). `filling` is true until the new rows are in.
 */
export function useDeferredRows<Row>(rows: Row[]): { shown: Row[]; filling: boolean } {
  const shown = useDeferredValue(rows, NO_ROWS as Row[]);
  return { shown, filling: shown !== rows };
}

/**
 * A list that is a table on wide screens and a list of cards on narrow ones (issue 19 item 1). Only one of the two is
 * rendered, so the accessibility tree never holds the rows twice.
 */
export function ResponsiveList<Row>({
  rows,
  label,
  isLoading,
  isFetching = false,
  rowKey,
  table,
  card,
  breakpoint,
  reserveRows = 0,
}: ResponsiveListProps<Row>) {
  const isNarrow = useIsNarrow(breakpoint);
  const { shown, filling } = useDeferredRows(rows);
  const list = isNarrow ? (
    <CardList rows={shown} label={label} isLoading={isLoading} isFetching={isFetching} filling={filling} rowKey={rowKey} card={card} />
  ) : (
    table(shown, filling)
  );
  // Always the same wrapper, so that the rows do not mount again when the loading ends. It keeps a page of rows' height
  // until the last rows are in, so that what follows does not move as they arrive (layout shift).
  return <Box mih={isLoading || filling ? reservedHeight(reserveRows, isNarrow) : undefined}>{list}</Box>;
}

function CardList<Row>({
  rows,
  label,
  isLoading,
  isFetching,
  filling,
  rowKey,
  card,
}: Pick<ResponsiveListProps<Row>, 'rows' | 'label' | 'isLoading' | 'isFetching' | 'rowKey' | 'card'> & { filling: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack
      component="ul"
      gap="sm"
      aria-label={label}
      aria-busy={isLoading || isFetching || filling}
      p={0}
      m={0}
      style={{ listStyle: 'none', opacity: isFetching && !isLoading ? 0.6 : 1 }}
      data-testid="card-list"
    >
      {rows.map((row) => (
        <CardItem key={rowKey(row)} row={row} card={card as (row: unknown) => ReactNode} />
      ))}
      {isLoading && (
        <li>
          <LoadingLine />
        </li>
      )}
      {!isLoading && rows.length === 0 && (
        <li>
          <Text c="dimmed" ta="center" py="sm">
            {t('errors.noItems')}
          </Text>
        </li>
      )}
    </Stack>
  );
}

/**
 * One card, memoised: a card already shown is not rendered again when the list renders (the list's `card` stays the
 * same function while only the list renders).
 */
const CardItem = memo(function CardItem({ row, card }: { row: unknown; card: (row: unknown) => ReactNode }) {
  return (
    <li className={CARD_CLASS} data-testid="list-card">
      {card(row)}
    </li>
  );
});

/** A label and its value on one line of a card. */
export function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="div" size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}
