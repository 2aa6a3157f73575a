import { Anchor, Box, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { proposalQuery } from '../../../features/proposals/api/proposals';
import { ExtraInformation } from '../../../features/proposals/components/extra-information';
import { ProposalDetails } from '../../../features/proposals/components/proposal-details';
import { ScrollButtons } from '../../../features/proposals/components/scroll-buttons';
import { isApiError } from '../../../lib/api-error';

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

function ProposalScreen({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data: proposal, error, isPending } = useQuery(proposalQuery(id));
  const reviews = useRef<HTMLDivElement>(null);
  if (isPending) {
    return (
      <Center py="xl" aria-busy>
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error || !proposal) {
    const status = isApiError(error) ? error.status : undefined;
    return <Unavailable notFound={status === 404 || status === 422} message={isApiError(error) ? error.serverMessage : undefined} />;
  }
  return (
    <Stack gap="xl">
      <ProposalDetails proposal={proposal} />
      {/* Issue 6: the aggregate score widget (overall, impact, feasibility, value for money; only while moderation is not enabled for the event) goes here. */}
      <ExtraInformation fields={proposal.extra.fields} />
      {/* Issue 6: the sticky own-review form (view and edit modes; shown only when the user can review this event and objective while review submission is enabled) goes here. */}
      {/* Issue 6: the reviews list (shown when review submission or subscription is enabled for the event) goes here; 'scroll to reviews' targets this box. */}
      <Box id={REVIEWS_ID} ref={reviews} style={{ scrollMarginTop: 16 }} />
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
