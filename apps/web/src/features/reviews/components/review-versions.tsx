import { Alert, Card, Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReviewVersion } from '@cr/contract/history';
import { useTranslation } from 'react-i18next';
import { VersionsTable } from '../../../components/versions-table';
import { reviewVersionsQuery } from '../api/get-review-versions';
import { changesBetween, type DiffPart } from '../version-diff';
import classes from './review-versions.module.css';

/** "edited N times" (issue 28 item 3), when the review was edited at all. */
export function EditedCount({ count }: { count: number | undefined }) {
  const { t } = useTranslation();
  if (!count) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="review-edited">
      {t('history.edited', { count })}
    </Text>
  );
}

/**
 * One side of a note's diff. Removed and added words are `<del>` and `<ins>` (struck through, underlined, and named
 * for screen readers), never told apart by colour alone.
 */
function DiffText({ parts, label }: { parts: DiffPart[]; label: string }) {
  const { t } = useTranslation();
  return (
    <div className={classes.side} aria-label={label} role="group">
      <Text size="xs" c="dimmed" tt="uppercase" mb={4} aria-hidden>
        {label}
      </Text>
      <Text size="sm" component="div" className={classes.text}>
        {parts.map((part, index) =>
          part.kind === 'removed' ? (
            <del key={index} className={classes.removed}>
              <span className="visually-hidden">{t('history.removedStart')}</span>
              {part.text}
              <span className="visually-hidden">{t('history.removedEnd')}</span>
            </del>
          ) : part.kind === 'added' ? (
            <ins key={index} className={classes.added}>
              <span className="visually-hidden">{t('history.addedStart')}</span>
              {part.text}
              <span className="visually-hidden">{t('history.addedEnd')}</span>
            </ins>
          ) : (
            <span key={index}>{part.text}</span>
          ),
        )}
      </Text>
    </div>
  );
}

/** What changed from one version to the next: each changed criterion's rating and its note side by side. */
function VersionChanges({ before, after }: { before: ReviewVersion; after: ReviewVersion }) {
  const { t } = useTranslation();
  const changes = changesBetween(before.content, after.content);
  const heading = t('history.changesTitle', { from: before.version, to: after.version });
  return (
    <Card withBorder component="section" aria-label={heading}>
      <Title order={3} size="h5" mb="xs">
        {heading}
      </Title>
      {changes.length === 0 && <Text size="sm">{t(after.action === 'delete' ? 'history.deletedNoChange' : 'history.noChange')}</Text>}
      <Stack gap="md">
        {changes.map(({ criterion, rating, note }) => (
          <Stack key={criterion.key} gap={6}>
            <Text fw={600} size="sm">
              {t(`reviews.criteria.${criterion.key}`)}
            </Text>
            {rating && <Text size="sm">{t('history.ratingChanged', { before: rating.before, after: rating.after })}</Text>}
            {note && (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <DiffText parts={note.before} label={t('history.versionLabel', { version: before.version })} />
                <DiffText parts={note.after} label={t('history.versionLabel', { version: after.version })} />
              </SimpleGrid>
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * The review's versions (issue 28 item 3), for admins and its author: when, who (the author shows as the review's
 * anonymous id to anyone but an admin) and what was done, then what changed from each version to the next.
 */
export function ReviewVersions({ reviewId }: { reviewId: number }) {
  const { t } = useTranslation();
  const { data, isPending, error } = useQuery(reviewVersionsQuery(reviewId));
  return (
    <Stack gap="sm" component="section" aria-labelledby="review-versions-title">
      <Title order={2} size="h3" id="review-versions-title">
        {t('history.title')}
      </Title>
      {isPending && (
        <Center>
          <Loader size="sm" role="status" aria-label={t('common.loading')} />
        </Center>
      )}
      {error && (
        <Alert color="red" role="alert">
          {t('history.fetchFailed')}
        </Alert>
      )}
      {data && (
        <>
          <VersionsTable
            versions={data.versions}
            label={t('history.tableLabel')}
            scrollLabel={t('history.title')}
            minWidth={520}
            emphasiseAction
          />
          {data.versions.length < 2 ? (
            <Text size="sm" c="dimmed">
              {t('history.onlyFirst')}
            </Text>
          ) : (
            <Stack gap="sm">
              {data.versions.slice(1).map((version, index) => (
                <VersionChanges key={version.version} before={data.versions[index]!} after={version} />
              ))}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
