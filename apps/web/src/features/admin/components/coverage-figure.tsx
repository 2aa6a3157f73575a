import { Alert, Progress } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { coverageSummaryQuery } from '../api/coverage';
import { ChartFigure } from './chart-figure';
import { percent } from './overview-data';

/**
 * The Overview's moderation coverage (issue 28 item 1): the share of allocated reviews with all the moderations the
 * allocation asked for, the short ones, the ties and the moderators with unfinished allocations. Read from the
 * coverage figures (not the dashboard's snapshot), so a moderation or a top-up shows at once.
 */
export function CoverageFigure({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const { data, isError } = useQuery(coverageSummaryQuery(eventId));
  const title = t('dashboard.coverage.title');
  if (isError) return <Alert color="red">{t('adminRuns.coverage.fetchFailed')}</Alert>;
  if (!data) return null;
  const complete = data.allocated_reviews - data.short_reviews;
  const done = percent(complete, data.allocated_reviews);
  return (
    <ChartFigure
      title={title}
      summary={
        data.allocated_reviews === 0
          ? t('dashboard.coverage.none')
          : t('dashboard.coverage.summary', { count: data.short_reviews, percent: done, perReview: data.per_review })
      }
      chart={<Progress value={done} size="xl" color="teal.7" />}
      columns={[t('dashboard.figure'), t('dashboard.value')]}
      rows={[
        [t('adminRuns.coverage.figures.allocated_reviews'), data.allocated_reviews],
        [t('adminRuns.coverage.figures.short_reviews'), data.short_reviews],
        [t('adminRuns.coverage.figures.ties'), data.ties],
        [t('adminRuns.coverage.figures.moderators_unfinished'), data.moderators_unfinished],
      ]}
    />
  );
}
