import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewPublic } from '@cr/contract/reviews';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { useDeferredRows } from '../../../components/responsive-list';
import { proposalReviewsQuery } from '../api/get-reviews';
import { REVIEWS_PAGE_SIZE } from '../api/keys';
import { ReviewCard } from './review-card';

const NO_REVIEWS: ReviewPublic[] = [];

/**
 * The reviews of a proposal (spec §2.12), 25 a page with the page in ?page=; a failure toasts and lists nothing. The
 * cards render in React's background pass (useDeferredRows): 25 cards were half a second at a phone's speed.
 */
export function ProposalReviews({ proposalId }: { proposalId: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [page] = usePageParam();
  const { data, isPending } = useQuery(proposalReviewsQuery(proposalId, page));
  const total = data?.page.total ?? 0;
  const { shown, filling } = useDeferredRows(data?.data ?? NO_REVIEWS);
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md" data-testid="proposal-reviews" aria-busy={filling || undefined}>
      <Title order={2} size="h3" id={headingId}>
        {t('reviews.listTitle', { count: total })}
      </Title>
      {isPending ? (
        <Center py="md">
          <Loader size="sm" role="status" aria-label={t('common.loading')} />
        </Center>
      ) : data && data.data.length > 0 ? (
        <>
          {shown.map((review) => (
            <ReviewCard key={review.row_id} review={review} />
          ))}
          {total > REVIEWS_PAGE_SIZE && <QueryPagination total={total} size={REVIEWS_PAGE_SIZE} />}
        </>
      ) : (
        <Text c="dimmed">{t('reviews.empty')}</Text>
      )}
    </Stack>
  );
}
