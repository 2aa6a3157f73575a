import { Alert, Badge, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ModerationVersion, ModerationVersionsOfReview } from '@cr/contract/history';
import { useTranslation } from 'react-i18next';
import { VersionsTable, type VersionColumn } from '../../../components/versions-table';
import { moderationVersionsQuery } from '../api/moderations';

type ModerationHistory = ModerationVersionsOfReview['moderations'][number];

/** One moderation's versions: when, who, what was done, and the decision, reason and rationale it left. */
function ModerationVersionTable({ moderation }: { moderation: ModerationHistory }) {
  const { t } = useTranslation();
  const moderator = moderation.moderator ?? t('history.unknownActor');
  const decision = (classification: number) => (classification === 0 ? 'excluded' : 'included');
  // After version, when, who and action: the decision, reason and rationale the version held.
  const columns: VersionColumn<ModerationVersion>[] = [
    {
      key: 'decision',
      header: t('history.moderationColumns.decision'),
      cell: ({ content }) => t(`moderation.classification.${content.classification === 0 ? 0 : 1}`),
    },
    {
      key: 'reason',
      header: t('history.moderationColumns.reason'),
      cell: ({ content: { classification, predefined_reason: reason, custom_rationale: custom } }) => (
        <>
          {reason ? t(`moderation.reasons.${decision(classification)}.${reason}`, { defaultValue: reason }) : '—'}
          {custom ? `: ${custom}` : ''}
        </>
      ),
    },
    {
      key: 'rationale',
      header: t('history.moderationColumns.rationale'),
      cell: ({ content }) => content.rationale,
      style: { overflowWrap: 'anywhere' },
    },
  ];
  return (
    <Stack gap={6} component="section" aria-label={t('history.moderationLabel', { moderator })}>
      <Group gap="xs">
        <Title order={3} size="h5">
          {t('history.moderationHeading', { moderator })}
        </Title>
        {moderation.deleted && (
          <Badge color="gray" variant="light">
            {t('history.moderationDeleted')}
          </Badge>
        )}
      </Group>
      <VersionsTable versions={moderation.versions} label={t('history.moderationLabel', { moderator })} minWidth={720} columns={columns} />
    </Stack>
  );
}

/**
 * The versions of the review's moderations (issue 28 item 3): to admins every moderation's, a deleted one's too;
 * each version with its decision, reason and rationale as it stood.
 */
export function ModerationVersions({ reviewId }: { reviewId: number }) {
  const { t } = useTranslation();
  const { data, isPending, error } = useQuery(moderationVersionsQuery(reviewId));
  return (
    <Stack gap="sm" component="section" aria-labelledby="moderation-versions-title">
      <Title order={2} size="h3" id="moderation-versions-title">
        {t('history.moderationsTitle')}
      </Title>
      {isPending && (
        <Center>
          <Loader size="sm" role="status" aria-label={t('common.loading')} />
        </Center>
      )}
      {error && (
        <Alert color="red" role="alert">
          {t('history.moderationsFetchFailed')}
        </Alert>
      )}
      {data && data.moderations.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('history.moderationsEmpty')}
        </Text>
      )}
      {data?.moderations.map((moderation) => (
        <ModerationVersionTable key={moderation.moderation_id} moderation={moderation} />
      ))}
    </Stack>
  );
}
