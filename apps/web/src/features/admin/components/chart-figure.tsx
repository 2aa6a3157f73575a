import { Box, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A chart with its title and its text alternative: the drawing is hidden from assistive technology, and the same
 * figures are in a visually hidden table captioned with the title (issue 15 item 5, as `Histogram` does). `summary`
 * is a visible line of the main figures.
 */
export function ChartFigure({
  title,
  summary,
  chart,
  columns,
  rows,
  children,
}: {
  title: string;
  summary?: ReactNode;
  chart: ReactNode;
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
  /** More content shown under the chart (e.g. a visible table). */
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" component="figure" m={0}>
      <Stack gap="xs">
        <Text component="figcaption" fw={600}>
          {title}
        </Text>
        {summary !== undefined && <Text size="sm">{summary}</Text>}
        <Box aria-hidden>{chart}</Box>
        <table className="visually-hidden">
          <caption>{title}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row[0])}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={i}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {children}
      </Stack>
    </Paper>
  );
}
