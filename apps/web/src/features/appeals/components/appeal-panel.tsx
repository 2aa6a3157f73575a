import { Alert, Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AppealPublic } from '@cr/contract/appeals';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateLong } from '../../../lib/format';
import { appealStateQuery } from '../api/appeals';

// The form checks the rationale with the contract's schema: it and zod load only for a review its author may appeal.
const AppealForm = lazy(() => import('./appeal-form'));

const statusColor: Record<AppealPublic['status'], string> = {
  open: 'gray',
  allocated: 'blue',
  upheld: 'green',
  rejected: 'red',
  closed: 'gray',
};

/** An appeal's state and result: the status, the decisions so far, and once decided the decisions' reasons. */
export function AppealResult({ appeal }: { appeal: AppealPublic }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="appeal-result">
      <Group gap="sm">
        <Text size="sm">{t('appeals.statusLabel')}</Text>
        <Badge color={statusColor[appeal.status]}>{t(`appeals.status.${appeal.status}`)}</Badge>
      </Group>
      <Text size="sm">{t(`appeals.explain.${appeal.status}`)}</Text>
      {appeal.decisions_needed > 0 && <Text size="sm">{t('appeals.tally', appeal)}</Text>}
      {appeal.decisions && appeal.decisions.length > 0 && (
        <List size="sm" aria-label={t('appeals.decisionsLabel')}>
          {appeal.decisions.map((decision, index) => (
            <List.Item key={index}>
              {t(decision.decision === 1 ? 'appeals.uphold' : 'appeals.reject')}: {decision.rationale}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/**
 * The review page's appeal panel for the review's author (issue 28 item 2): while the window is open and the review
 * excluded, the appeal form (once); then the appeal's state and result. The window's end shows, and that it ends at
 * the latest when proposal scores are generated.
 */
export function AppealPanel({ reviewId }: { reviewId: number }) {
  const { t } = useTranslation();
  const { data: state } = useQuery({ ...appealStateQuery(reviewId), retry: false });
  if (!state || (state.window === 'not_excluded' && !state.appeal)) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="appeal-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="appeal-title">
          {t('appeals.title')}
        </Title>
        {state.appeal ? (
          <AppealResult appeal={state.appeal} />
        ) : state.window === 'open' ? (
          <>
            <Text size="sm">{t('appeals.windowOpen', { date: formatDateLong(state.ends_at) })}</Text>
            {state.can_appeal && (
              <Suspense fallback={null}>
                <AppealForm state={state} />
              </Suspense>
            )}
          </>
        ) : (
          <Alert color="gray">{t(`appeals.window.${state.window}`, { date: formatDateLong(state.ends_at) })}</Alert>
        )}
      </Stack>
    </Paper>
  );
}
