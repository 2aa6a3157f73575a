import { switchActive, canReview } from '@cr/contract/plain';
import { Anchor, Box, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ProposalPublic } from '@cr/contract/proposals';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { eventConfigQuery } from '../../../features/events/api/events';
import { proposalQuery } from '../../../features/proposals/api/proposals';
import { ExtraInformation } from '../../../features/proposals/components/extra-information';
import { ProposalDetails } from '../../../features/proposals/components/proposal-details';
import { ScoreWidget } from '../../../features/proposals/components/score-widget';
import { ScrollButtons } from '../../../features/proposals/components/scroll-buttons';
import type { EditReviewState } from '../../../features/reviews/components/own-review-actions';
import { OwnReviewForm } from '../../../features/reviews/components/own-review-form';
import { ProposalReviews } from '../../../features/reviews/components/proposal-reviews';
import { isApiError } from '../../../lib/api-error';
import { useSession } from '../../../lib/session';
import classes from './proposal.module.css';

/** Where 'scroll to reviews' goes (spec §2.12). */
const REVIEWS_ID = 'reviews';

function parseId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A proposal that does not exist (404 or a malformed id), or one that could not be loaded. */
function Unavailable({ notFound, message }: { notFound: boolean; message?: string }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" py="xl" gap="sm">
      <Title order={1} size="h2">
        {notFound ? t('proposals.notFoundTitle') : t('proposals.loadFailedTitle')}
      </Title>
      <Text c="dimmed">{notFound ? t('proposals.notFound') : (message ?? t('proposals.loadFailed'))}</Text>
      <Anchor component={Link} to={paths.proposals()}>
        {t('proposals.backToList')}
      </Anchor>
    </Stack>
  );
}

/**
 * What of the reviews the page shows (spec §2.12): the own-review form to a logged-in user who can review the event
 * (E-005), is not an author in the proposal's objective (E-006), while review submission is on (E-007); the reviews
 * list while review submission or subscription is on (D-025).
 */
function useReviewPlaces(proposal: ProposalPublic | undefined) {
  const logged = useSession((state) => state.logged);
  const userInfo = useSession((state) => state.userInfo);
  const eventId = proposal?.event_id ?? 0;
  const { data: config } = useQuery({ ...eventConfigQuery(eventId), enabled: eventId > 0 });
  const settings = config ?? undefined;
  const isSubmissionOn = switchActive(settings, 'review_submission_enabled');
  const isAuthor = proposal?.objective != null && (userInfo?.extra.unique_objectives_as_author ?? []).includes(proposal.objective);
  const canWrite = Boolean(proposal && logged && userInfo && canReview(userInfo, eventId) && !isAuthor && isSubmissionOn);
  return {
    ownReviewUser: canWrite && userInfo ? userInfo.catalyst_id.id : null,
    showsList: isSubmissionOn || switchActive(settings, 'reviewer_subscription_enabled'),
    // G-002: the score widget only while moderation is not enabled for the event (and once the config is known).
    showsScore: config !== undefined && !switchActive(settings, 'moderation_submission_enabled'),
  };
}

function ProposalScreen({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data: proposal, error, isPending } = useQuery(proposalQuery(id));
  const reviews = useRef<HTMLDivElement>(null);
  const { ownReviewUser, showsList, showsScore } = useReviewPlaces(proposal);
  // Edit on the review's own page lands here with the form in edit mode (issue 12 item 11).
  const startEditing = (useLocation().state as Partial<EditReviewState> | null)?.editReview === true;
  if (isPending) {
    return (
      <Center py="xl" aria-busy>
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error || !proposal) {
    const status = isApiError(error) ? error.status : undefined;
    return <Unavailable notFound={status === 404 || status === 422} message={isApiError(error) ? error.serverMessage : undefined} />;
  }
  const content = (
    <Stack gap="xl">
      <ProposalDetails proposal={proposal} />
      {proposal.score && showsScore && <ScoreWidget score={proposal.score} />}
      <ExtraInformation fields={proposal.extra.fields} />
    </Stack>
  );
  return (
    <Stack gap="xl">
      {ownReviewUser ? (
        <div className={classes.withReview}>
          <div>{content}</div>
          <div>
            {/* Sticky beside the proposal on wide screens (E-003); in the flow on phones. */}
            <Box
              pos={{ base: 'static', lg: 'sticky' }}
              top={16}
              mah={{ lg: 'calc(100vh - 32px)' }}
              style={{ overflowY: 'auto' }}
              data-testid="own-review-column"
            >
              <OwnReviewForm
                proposalId={proposal.row_id}
                proposalTitle={proposal.title}
                userId={ownReviewUser}
                startEditing={startEditing}
              />
            </Box>
          </div>
        </div>
      ) : (
        content
      )}
      {/* 'Scroll to reviews' targets this box. */}
      <Box id={REVIEWS_ID} ref={reviews} style={{ scrollMarginTop: 16 }}>
        {showsList && <ProposalReviews proposalId={proposal.row_id} />}
      </Box>
      <ScrollButtons reviews={reviews} />
    </Stack>
  );
}

/** A single proposal (spec §2.12), open to visitors. */
export default function Proposal() {
  const id = parseId(useParams().id);
  if (id === null) return <Unavailable notFound />;
  return <ProposalScreen key={id} id={id} />;
}
