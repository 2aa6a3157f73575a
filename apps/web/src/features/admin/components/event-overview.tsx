import { levelLabel } from '@cr/contract/plain';
import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Alert, ColorSwatch, Group, Loader, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_TTL_SECONDS, type Dashboard } from '@cr/contract/dashboard';
import { eventDashboardQuery } from '../api/dashboard';
import { ChartFigure } from './chart-figure';
import { CoverageFigure } from './coverage-figure';
import { dailySeries, percent, utcDay } from './overview-data';
import { formatLocale } from '../../../lib/locale';

const STATUSES = ['active', 'subscribed', 'invited', 'refused', 'excluded'] as const;
const STATUS_COLORS = { active: 'brand.6', subscribed: 'cyan.6', invited: 'yellow.6', refused: 'gray.6', excluded: 'red.7' };
const RANKINGS = ['included', 'excluded_moderation', 'excluded_threshold', 'pending'] as const;
const RANKING_COLORS = { included: 'teal.7', excluded_moderation: 'red.7', excluded_threshold: 'orange.7', pending: 'gray.6' };
const CHART_HEIGHT = 220;

const formatNumber = (value: number) => value.toLocaleString(formatLocale());
const formatScore = (value: number) => value.toFixed(1);

function SubscribersChart({ data }: { data: Dashboard['subscribers'] }) {
  const { t } = useTranslation();
  const rows = data.by_level.map((level) => ({ level: levelLabel(level.level), total: level.total, ...level.by_status }));
  return (
    <ChartFigure
      title={t('dashboard.subscribers.title')}
      summary={t('dashboard.subscribers.summary', { count: data.total, total: formatNumber(data.total) })}
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={rows}
          dataKey="level"
          type="stacked"
          withLegend
          series={STATUSES.map((status) => ({ name: status, label: t(`dashboard.status.${status}`), color: STATUS_COLORS[status] }))}
        />
      }
      columns={[t('dashboard.subscribers.level'), t('dashboard.total'), ...STATUSES.map((status) => t(`dashboard.status.${status}`))]}
      rows={data.by_level.map((level) => [levelLabel(level.level), level.total, ...STATUSES.map((status) => level.by_status[status] ?? 0)])}
    />
  );
}

function ProposalsChart({ data }: { data: Dashboard['proposals'] }) {
  const { t } = useTranslation();
  const rows = data.by_category.map((item) => ({ category: item.title ?? t('dashboard.proposals.noCategory'), count: item.count }));
  return (
    <ChartFigure
      title={t('dashboard.proposals.title')}
      summary={t('dashboard.proposals.summary', { count: data.total, total: formatNumber(data.total) })}
      chart={
        <BarChart
          h={Math.max(CHART_HEIGHT, rows.length * 40)}
          data={rows}
          dataKey="category"
          orientation="vertical"
          yAxisProps={{ width: 180, interval: 0 }}
          series={[{ name: 'count', label: t('dashboard.proposals.count'), color: 'brand.6' }]}
        />
      }
      columns={[t('dashboard.proposals.category'), t('dashboard.proposals.count')]}
      rows={rows.map((row) => [row.category, row.count])}
    />
  );
}

function AllocationsChart({ data }: { data: Dashboard['allocations'] }) {
  const { t } = useTranslation();
  const done = percent(data.reviews_done, data.allocations);
  return (
    <ChartFigure
      title={t('dashboard.allocations.title')}
      summary={t('dashboard.allocations.summary', {
        done: formatNumber(data.reviews_done),
        of: formatNumber(data.allocations),
        percent: done,
      })}
      chart={<Progress value={done} size="xl" />}
      columns={[t('dashboard.figure'), t('dashboard.value')]}
      rows={[
        [t('dashboard.allocations.allocations'), data.allocations],
        [t('dashboard.allocations.proposalsAllocated'), data.proposals_allocated],
        [t('dashboard.allocations.reviewersAllocated'), data.reviewers_allocated],
        [t('dashboard.allocations.reviewsDone'), data.reviews_done],
        [t('dashboard.allocations.reviewsTotal'), data.reviews_total],
      ]}
    />
  );
}

function ReviewsPerDayChart({ data }: { data: Dashboard['reviews_per_day'] }) {
  const { t } = useTranslation();
  const { window } = data;
  const series = dailySeries(data.days, window);
  const inRange = (day: string) => series.some((item) => item.day === day);
  const windowLines = [
    window.starts_at && { day: utcDay(window.starts_at), label: t('dashboard.reviewsPerDay.windowStart') },
    window.ends_at && { day: utcDay(window.ends_at), label: t('dashboard.reviewsPerDay.windowEnd') },
  ].filter((line): line is { day: string; label: string } => !!line && inRange(line.day));
  const summary =
    window.starts_at || window.ends_at
      ? t('dashboard.reviewsPerDay.window', {
          from: window.starts_at ? utcDay(window.starts_at) : '…',
          to: window.ends_at ? utcDay(window.ends_at) : '…',
        })
      : t('dashboard.reviewsPerDay.noWindow');
  return (
    <ChartFigure
      title={t('dashboard.reviewsPerDay.title')}
      summary={summary}
      chart={
        series.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('dashboard.none')}
          </Text>
        ) : (
          <BarChart
            h={CHART_HEIGHT}
            data={series}
            dataKey="day"
            series={[{ name: 'count', label: t('dashboard.reviewsPerDay.count'), color: 'brand.6' }]}
            referenceLines={windowLines.map((line) => ({ x: line.day, label: line.label, color: 'red.7' }))}
          />
        )
      }
      columns={[t('dashboard.reviewsPerDay.day'), t('dashboard.reviewsPerDay.count')]}
      rows={data.days.map((item) => [item.day, item.count])}
    />
  );
}

function ModerationChart({ data }: { data: Dashboard['moderation'] }) {
  const { t } = useTranslation();
  const done = percent(data.moderated, data.allocated);
  return (
    <ChartFigure
      title={t('dashboard.moderation.title')}
      summary={t('dashboard.moderation.summary', { done: formatNumber(data.moderated), of: formatNumber(data.allocated), percent: done })}
      chart={<Progress value={done} size="xl" color="teal.7" />}
      columns={[t('dashboard.figure'), t('dashboard.value')]}
      rows={[
        [t('dashboard.moderation.allocated'), data.allocated],
        [t('dashboard.moderation.moderated'), data.moderated],
        [t('dashboard.moderation.moderations'), data.moderations],
        [t('dashboard.moderation.moderators'), data.moderators],
      ]}
    >
      <Table withTableBorder captionSide="top">
        <Table.Caption>{t('dashboard.moderation.spread')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('dashboard.figure')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.min')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.avg')}</Table.Th>
            <Table.Th scope="col">{t('dashboard.max')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(
            [
              ['allocatedPerModerator', data.allocated_per_moderator],
              ['moderatedPerModerator', data.moderated_per_moderator],
            ] as const
          ).map(([key, spread]) => (
            <Table.Tr key={key}>
              <Table.Th scope="row">{t(`dashboard.moderation.${key}`)}</Table.Th>
              <Table.Td>{spread.min}</Table.Td>
              <Table.Td>{spread.avg}</Table.Td>
              <Table.Td>{spread.max}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ChartFigure>
  );
}

function OutcomesChart({ data }: { data: Dashboard['outcomes'] }) {
  const { t } = useTranslation();
  const total = RANKINGS.reduce((sum, ranking) => sum + data[ranking], 0);
  return (
    <ChartFigure
      title={t('dashboard.outcomes.title')}
      summary={t('dashboard.outcomes.summary', { ...data })}
      chart={
        total === 0 ? (
          <Text size="sm" c="dimmed">
            {t('dashboard.none')}
          </Text>
        ) : (
          <Group wrap="nowrap" align="center">
            <DonutChart
              h={CHART_HEIGHT}
              withLabelsLine
              withLabels
              // The drawing is hidden from assistive technology (the table says the same): nothing in it takes focus.
              pieProps={{ rootTabIndex: -1 }}
              data={RANKINGS.filter((ranking) => data[ranking] > 0).map((ranking) => ({
                name: t(`dashboard.ranking.${ranking}`),
                value: data[ranking],
                color: RANKING_COLORS[ranking],
              }))}
            />
            <Stack gap={4}>
              {RANKINGS.map((ranking) => (
                <Group key={ranking} gap={6} wrap="nowrap">
                  <ColorSwatch size={12} color={`var(--mantine-color-${RANKING_COLORS[ranking].replace('.', '-')})`} />
                  <Text size="xs">{t(`dashboard.ranking.${ranking}`)}</Text>
                </Group>
              ))}
            </Stack>
          </Group>
        )
      }
      columns={[t('dashboard.outcomes.ranking'), t('dashboard.outcomes.reviews')]}
      rows={RANKINGS.map((ranking) => [t(`dashboard.ranking.${ranking}`), data[ranking]])}
    />
  );
}

function ScoresChart({ data }: { data: Dashboard['scores'] }) {
  const { t } = useTranslation();
  const rows = data.buckets.map((bucket) => ({ range: `${formatScore(bucket.from)}–${formatScore(bucket.to)}`, count: bucket.count }));
  return (
    <ChartFigure
      title={t('dashboard.scores.title')}
      summary={
        data.scored + data.unscored === 0
          ? t('dashboard.scores.notYet')
          : t('dashboard.scores.summary', { scored: formatNumber(data.scored), unscored: formatNumber(data.unscored) })
      }
      chart={
        <BarChart
          h={CHART_HEIGHT}
          data={rows}
          dataKey="range"
          series={[{ name: 'count', label: t('dashboard.scores.count'), color: 'brand.6' }]}
        />
      }
      columns={[t('dashboard.scores.range'), t('dashboard.scores.count')]}
      rows={rows.map((row) => [row.range, row.count])}
    />
  );
}

/**
 * The Overview section of the event configuration (issue 15 item 5): the round's figures from
 * `GET events/{id}/dashboard/`, each chart with its table for screen readers. @mantine/charts (recharts) is
 * imported here only, so it loads with the admin area's event configuration and never with the main bundle.
 */
export function EventOverview({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const { data, isError, isFetching } = useQuery(eventDashboardQuery(eventId));
  if (isError) return <Alert color="red">{t('errors.fetchDashboard')}</Alert>;
  if (!data) return <Loader size="sm" role="status" aria-label={t('common.loading')} />;
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('dashboard.computedAt', { at: dayjs(data.computed_at).format('YYYY-MM-DD HH:mm:ss'), seconds: DASHBOARD_TTL_SECONDS })}
        </Text>
        {/* Asked again after a run or a change of this session (issue 26 item 16): the figures below are about to change. */}
        {isFetching && <Loader size="xs" role="status" aria-label={t('dashboard.updating')} />}
      </Group>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <SubscribersChart data={data.subscribers} />
        <ProposalsChart data={data.proposals} />
        <AllocationsChart data={data.allocations} />
        <ReviewsPerDayChart data={data.reviews_per_day} />
        <ModerationChart data={data.moderation} />
        <CoverageFigure eventId={eventId} />
        <OutcomesChart data={data.outcomes} />
        <ScoresChart data={data.scores} />
      </SimpleGrid>
    </Stack>
  );
}
