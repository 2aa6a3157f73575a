import { Alert, Badge, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ModerationVersionsOfReview } from '@cr/contract/history';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/scroll-table';
import { formatDateLong } from '../../../lib/format';
import { moderationVersionsQuery } from '../api/moderations';

type ModerationHistory = ModerationVersionsOfReview['moderations'][number];

/** One moderation's versions: when, who, what was done, and the decision, reason and rationale it left. */
function ModerationVersionTable({ moderation }: { moderation: ModerationHistory }) {
  const { t } = useTranslation();
  const moderator = moderation.moderator ?? t('history.unknownActor');
  const decision = (classification: number) => (classification === 0 ? 'excluded' : 'included');
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
      <ScrollTable minWidth={720} label={t('history.moderationLabel', { moderator })}>
        <Table striped verticalSpacing="xs" aria-label={t('history.moderationLabel', { moderator })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.columns.version')}</Table.Th>
              <Table.Th>{t('history.columns.when')}</Table.Th>
              <Table.Th>{t('history.columns.who')}</Table.Th>
              <Table.Th>{t('history.columns.action')}</Table.Th>
              <Table.Th>{t('history.moderationColumns.decision')}</Table.Th>
              <Table.Th>{t('history.moderationColumns.reason')}</Table.Th>
              <Table.Th>{t('history.moderationColumns.rationale')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {moderation.versions.map((version) => {
              const { classification, predefined_reason: reason, custom_rationale: custom, rationale } = version.content;
              return (
                <Table.Tr key={version.version}>
                  <Table.Td>{version.version}</Table.Td>
                  <Table.Td>{formatDateLong(version.created_at)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {version.actor ?? t('history.unknownActor')}
                    </Text>
                  </Table.Td>
                  <Table.Td>{t(`history.actions.${version.action}`)}</Table.Td>
                  <Table.Td>{t(`moderation.classification.${classification === 0 ? 0 : 1}`)}</Table.Td>
                  <Table.Td>
                    {reason ? t(`moderation.reasons.${decision(classification)}.${reason}`, { defaultValue: reason }) : '—'}
                    {custom ? `: ${custom}` : ''}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{rationale}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollTable>
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
