import { Box, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { withGaps } from './histogram-data';

const CHART_HEIGHT = 112;
/** Room for the bars below the count written over the highest. */
const BAR_SPACE = CHART_HEIGHT - 20;

/**
 * A small bar chart of a histogram (how many proposals or reviewers have each number of allocations). The bars are
 * decoration for sighted users; the same numbers are in a visually hidden table named by the chart's title.
 */
export function Histogram({
  title,
  data,
  valueLabel,
  countLabel,
}: {
  title: string;
  data: readonly (readonly [number, number])[];
  valueLabel: string;
  countLabel: string;
}) {
  const { t } = useTranslation();
  const bars = withGaps(data);
  const highest = Math.max(1, ...bars.map(([, count]) => count));
  const labelled = bars.length <= 16;
  // Many bars share the width without gaps, so that the chart fits a phone or a tablet's modal (issue 19 item 4).
  const gap = bars.length > 60 ? 0 : 2;
  return (
    <Stack gap={4} component="figure" m={0} data-testid="histogram">
      <Text component="figcaption" size="sm" fw={600}>
        {title}
      </Text>
      {bars.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('adminRuns.noData')}
        </Text>
      ) : (
        <>
          <Box
            aria-hidden
            style={{
              display: 'flex',
              alignItems: 'flex-end',
              gap,
              height: CHART_HEIGHT,
              borderBottom: '1px solid var(--mantine-color-gray-6)',
            }}
          >
            {bars.map(([value, count]) => (
              <Box
                key={value}
                title={`${valueLabel} ${value}: ${countLabel} ${count}`}
                style={{
                  flex: '1 1 0',
                  maxWidth: 48,
                  minWidth: 0,
                  display: 'flex',
                  flexDirection: 'column',
                  justifyContent: 'flex-end',
                  height: '100%',
                }}
              >
                {labelled && count > 0 && (
                  <Text size="xs" ta="center" lh={1.4}>
                    {count}
                  </Text>
                )}
                <Box
                  style={{
                    height: (count / highest) * BAR_SPACE,
                    minHeight: count > 0 ? 2 : 0,
                    background: 'var(--mantine-color-brand-6)',
                    borderRadius: '2px 2px 0 0',
                  }}
                />
              </Box>
            ))}
          </Box>
          {labelled ? (
            <Box aria-hidden style={{ display: 'flex', gap: 2 }}>
              {bars.map(([value]) => (
                <Text key={value} size="xs" c="dimmed" ta="center" style={{ flex: '1 1 0', maxWidth: 48, minWidth: 2 }}>
                  {value}
                </Text>
              ))}
            </Box>
          ) : (
            <Group aria-hidden justify="space-between">
              <Text size="xs" c="dimmed">
                {bars[0]![0]}
              </Text>
              <Text size="xs" c="dimmed">
                {bars.at(-1)![0]}
              </Text>
            </Group>
          )}
          <Text aria-hidden size="xs" c="dimmed" ta="center">
            {t('adminRuns.histogramAxis', { x: valueLabel, y: countLabel })}
          </Text>
          <table className="visually-hidden">
            <caption>{title}</caption>
            <thead>
              <tr>
                <th scope="col">{valueLabel}</th>
                <th scope="col">{countLabel}</th>
              </tr>
            </thead>
            <tbody>
              {data.map(([value, count]) => (
                <tr key={value}>
                  <td>{value}</td>
                  <td>{count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Stack>
  );
}
