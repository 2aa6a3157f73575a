import { switchActive, ReviewRanking } from '@cr/contract/plain';
import { Alert, Anchor, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { AppealPanel } from '../../../features/appeals/components/appeal-panel';
import { eventConfigQuery } from '../../../features/events/api/events';
import { FlagsPanel } from '../../../features/moderation/components/flags-panel';
import type { ModerationFormHandle } from '../../../features/moderation/components/moderation-form';
import { ModerationsTable } from '../../../features/moderation/components/moderations-table';
import { ModerationVersions } from '../../../features/moderation/components/moderation-versions';
import { useShortcuts } from '../../../features/moderation/shortcuts';
import { reviewQuery } from '../../../features/reviews/api/get-review';
import { OwnReviewActions } from '../../../features/reviews/components/own-review-actions';
import { EditedCount, ReviewVersions } from '../../../features/reviews/components/review-versions';
import { NextAllocationButton, RatingCards, ReviewHeader } from '../../../features/reviews/components/review-details';
import { isApiError } from '../../../lib/api-error';
import { isAdmin, useSession } from '../../../lib/session';

// The moderator's form and its shortcuts' help load only for a moderator of the review, not with the page.
const ModerationForm = lazy(() =>
  import('../../../features/moderation/components/moderation-form').then((module) => ({ default: module.ModerationForm })),
);
const ShortcutsHelp = lazy(() =>
  import('../../../features/moderation/components/shortcuts-help').then((module) => ({ default: module.ShortcutsHelp })),
);

function parseId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A review that does not exist, or one that could not be loaded: a quiet message, never a toast (spec §8, E-051). */
function Unavailable({ notFound }: { notFound: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" py="xl" gap="sm" data-testid="review-unavailable">
      <Title order={1} size="h2">
        {notFound ? t('reviews.notFoundTitle') : t('reviews.unavailableTitle')}
      </Title>
      <Text c="dimmed">{notFound ? t('reviews.notFound') : t('reviews.unavailable')}</Text>
      <Anchor component={Link} to={paths.reviews()}>
        {t('reviews.backToList')}
      </Anchor>
    </Stack>
  );
}

function ReviewScreen({ id }: { id: number }) {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  const user = useSession((state) => (state.logged ? state.userInfo : null));
  const admin = useSession(isAdmin);
  const navigate = useNavigate();
  const { data: review, error, isPending } = useQuery(reviewQuery(id));
  const { data: config } = useQuery({ ...eventConfigQuery(review?.event ?? 0), enabled: review !== undefined });
  const form = useRef<ModerationFormHandle | null>(null);
  const [helpOpened, help] = useDisclosure(false);
  const moderating = logged && !!review?.allocated_for_moderation && switchActive(config ?? undefined, 'moderation_submission_enabled');
  // Issue 14 item 6: the moderator's keys, never while typing in a field (see shortcuts.ts).
  useShortcuts(
    {
      next: () => review?.next_allocation && navigate(paths.review(review.next_allocation)),
      previous: () => navigate(-1),
      include: () => form.current?.classify(1),
      exclude: () => form.current?.classify(0),
      reason: () => form.current?.focusReason(),
      save: () => form.current?.save(),
      help: help.toggle,
    },
    moderating,
  );

  useEffect(() => {
    // Only logged (spec §8): the detail page shows no toast for a failed fetch.
    if (error) console.error('Fetching review failed', error);
  }, [error]);

  if (isPending) {
    return (
      <Center py="xl" aria-busy>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error || !review) {
    const status = isApiError(error) ? error.status : undefined;
    return <Unavailable notFound={status === 404 || status === 422} />;
  }

  // Spec §2.15: the viewer moderates this review while moderation is open for its event.
  const isModerating = moderating;
  const moderationEnabled = switchActive(config ?? undefined, 'moderation_submission_enabled');
  const rankingPending = review.ranking === null || review.ranking === ReviewRanking.pending;
  // Issue 12 item 11: the author (their anonymous id in the review's event) may edit or delete it while reviews are open.
  const isAuthor =
    user?.extra.subscriptions.some((item) => item.event_id === review.proposal.event_id && item.extra.anonymous_id === review.assessor) ??
    false;
  const canChange = isAuthor && switchActive(config ?? undefined, 'review_submission_enabled');
  return (
    <Stack gap="xl">
      <ReviewHeader review={review} showRanking={!isModerating} />
      <EditedCount count={review.edit_count} />
      {/* Issue 28 item 3: the moderator who moderated this review learns that it changed since. */}
      {review.changed_after_moderation && (
        <Alert color="yellow" title={t('moderation.changedAfterTitle')} role="status">
          {t('moderation.changedAfter')}
        </Alert>
      )}
      {canChange && user && (
        <OwnReviewActions
          review={review}
          userId={user.catalyst_id.id}
          onDeleted={() => navigate(paths.proposal(review.proposal_id), { replace: true })}
        />
      )}
      <RatingCards review={review} />
      {/* Issue 28 item 2: the author's appeal of an excluded review, its state and result. */}
      {isAuthor && <AppealPanel reviewId={review.row_id} />}
      <Group justify="flex-end">
        <NextAllocationButton next={review.next_allocation} />
      </Group>
      {/* Spec §2.15, F-012: logged in, allocated_for_moderation and moderation enabled for the event. */}
      {isModerating && user && (
        <>
          <Suspense fallback={<Loader size="sm" role="status" aria-label={t('common.loading')} />}>
            <ModerationForm review={review} userId={user.catalyst_id.id} handle={form} />
          </Suspense>
          <Text size="sm" c="dimmed">
            {t('moderation.shortcutsHint')}
          </Text>
          {helpOpened && (
            <Suspense fallback={null}>
              <ShortcutsHelp opened onClose={help.close} />
            </Suspense>
          )}
        </>
      )}
      {/* Spec §2.15, F-039..F-046. */}
      <FlagsPanel review={review} />
      {/* Spec §2.15, F-038: moderation not enabled for the event and the ranking not pending. */}
      {config !== undefined && !moderationEnabled && !rankingPending && <ModerationsTable reviewId={review.row_id} />}
      {/* Issue 28 item 3: the versions, to admins and the author. */}
      {(admin || isAuthor) && <ReviewVersions reviewId={review.row_id} />}
      {admin && <ModerationVersions reviewId={review.row_id} />}
    </Stack>
  );
}

/** A single review (spec §2.15), open to visitors (E-001). */
export default function Review() {
  const id = parseId(useParams().id);
  if (id === null) return <Unavailable notFound />;
  return <ReviewScreen key={id} id={id} />;
}
