import { switchActive, canReview } from '@cr/contract/plain';
import { Grid } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { categoriesQuery, eventConfigQuery, useCurrentEvents } from '../../../features/events/api/events';
import { filteredReviewsQuery } from '../../../features/reviews/api/get-reviews';
import { REVIEWS_PAGE_SIZE } from '../../../features/reviews/api/keys';
import { ReviewsFilters } from '../../../features/reviews/components/reviews-filters';
import { ReviewsTable } from '../../../features/reviews/components/reviews-table';
import { filterDefaults } from '../../../features/reviews/filters';
import { useReviewFilters } from '../../../features/reviews/use-review-filters';
import { useSession } from '../../../lib/session';

/** No rows while loading: one array, so that the memoised table does not render again for a new empty one. */
const NO_ROWS: never[] = [];

/**
 * What the current events and the user make the filters' defaults (spec §2.13, E-030..E-034), and whether they are
 * known yet: the list waits for them, so it never asks once with the wrong defaults.
 */
function useFilterDefaults() {
  const { events, stage, isLoading } = useCurrentEvents();
  const configs = useQueries({ queries: events.map(({ event }) => eventConfigQuery(event.row_id)) });
  const user = useSession((state) => (state.logged ? state.userInfo : null));
  const reviewable = user ? events.filter(({ event }) => canReview(user, event.row_id)).map(({ event }) => event.row_id) : [];
  const anonymousIds = (user?.extra.subscriptions ?? [])
    .filter((item) => reviewable.includes(item.event_id))
    .map((item) => item.extra.anonymous_id);
  const defaults = filterDefaults({
    stage,
    submissionOrModerationOpen: events.some(
      ({ config }) => switchActive(config, 'review_submission_enabled') || switchActive(config, 'moderation_submission_enabled'),
    ),
    canReviewCurrent: reviewable.length > 0,
    anonymousIds,
  });
  return {
    defaults,
    isReady: !isLoading && configs.every((query) => !query.isPending),
    events: events.map(({ event }) => ({ id: event.row_id, name: event.name })),
  };
}

/**
 * The current events' categories as objective options (compose the events feature's query here, not in the feature).
 * Two current rounds may share a category title: such options name their round, so that no two read the same.
 */
function useObjectiveOptions(events: { id: number; name: string }[]) {
  const results = useQueries({ queries: events.map(({ id }) => categoriesQuery(id)) });
  const seen = new Set<number>();
  const options = results
    .flatMap((result, index) => (result.data ?? []).map((category) => ({ category, eventName: events[index]!.name })))
    .filter(({ category }) => !seen.has(category.id) && seen.add(category.id));
  const titleCount = new Map<string, number>();
  for (const { category } of options) titleCount.set(category.title, (titleCount.get(category.title) ?? 0) + 1);
  return options.map(({ category, eventName }) => ({
    value: String(category.id),
    label: titleCount.get(category.title)! > 1 ? `${category.title} (${eventName})` : category.title,
  }));
}

/** The community reviews list (spec §2.13): filter sidebar and a table of 25 a page; open to visitors (E-001). */
export default function Reviews() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const { defaults, isReady, events } = useFilterDefaults();
  const state = useReviewFilters(defaults);
  const objectives = useObjectiveOptions(events);
  const { data, isLoading, isFetching, isPlaceholderData } = useQuery({
    ...filteredReviewsQuery(state.filters, page, REVIEWS_PAGE_SIZE),
    enabled: isReady,
  });
  return (
    <>
      <PageHeading title={t('reviews.pageTitle')}>{t('reviews.pageIntro')}</PageHeading>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <ReviewsFilters state={state} defaults={defaults} categories={objectives} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <ReviewsTable
            rows={data?.data ?? NO_ROWS}
            label={t('reviews.tableLabel')}
            isLoading={!isReady || isLoading}
            isFetching={isFetching && isPlaceholderData}
          />
          <QueryPagination total={data?.page.total ?? 0} size={REVIEWS_PAGE_SIZE} />
        </Grid.Col>
      </Grid>
    </>
  );
}
