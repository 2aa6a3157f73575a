import { Group, Loader, Paper, Stack, Text, useMantineTheme, type MantineBreakpoint } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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
  /** The table as wide screens show it; called only on wide screens. */
  table: () => ReactNode;
  /** One row as a compact card: what a person needs first, then the action. */
  card: (row: Row) => ReactNode;
  /** Below this width the rows show as cards (issue 19). */
  breakpoint?: MantineBreakpoint | undefined;
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
}: ResponsiveListProps<Row>) {
  const { t } = useTranslation();
  const isNarrow = useIsNarrow(breakpoint);
  if (!isNarrow) return <>{table()}</>;
  return (
    <Stack
      component="ul"
      gap="sm"
      aria-label={label}
      aria-busy={isLoading || isFetching}
      p={0}
      m={0}
      style={{ listStyle: 'none', opacity: isFetching && !isLoading ? 0.6 : 1 }}
      data-testid="card-list"
    >
      {rows.map((row) => (
        <Paper key={rowKey(row)} component="li" withBorder radius="md" p="sm" data-testid="list-card">
          {card(row)}
        </Paper>
      ))}
      {isLoading && (
        <li>
          <Group justify="center" gap="xs" py="sm">
            <Loader size="sm" aria-hidden />
            <Text size="sm" c="dimmed">
              {t('common.loading')}
            </Text>
          </Group>
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
