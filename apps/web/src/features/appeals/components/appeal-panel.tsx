import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { APPEAL_RATIONALE_MAX, APPEAL_RATIONALE_MIN, newAppeal, type AppealPublic, type AppealState } from '@cr/contract/appeals';
import { nonWhitespaceLength } from '@cr/contract/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateLong } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { appealStateQuery, useMakeAppeal } from '../api/appeals';

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

function AppealForm({ state }: { state: AppealState }) {
  const { t } = useTranslation();
  const [rationale, setRationale] = useState('');
  const [touched, setTouched] = useState(false);
  const make = useMakeAppeal();
  const parsed = newAppeal.shape.rationale.safeParse(rationale);
  const error = touched && !parsed.success ? parsed.error.issues[0]!.message : undefined;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success) return;
    try {
      await make.mutateAsync({ review_id: state.review_id, rationale });
      notifySuccess('appeals.made');
    } catch (failure) {
      notifyError(failure, 'appeals.makeFailed');
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('appeals.formLabel')}>
      <Stack gap="sm">
        <Textarea
          label={t('appeals.rationale')}
          description={t('appeals.rationaleHint', { min: APPEAL_RATIONALE_MIN, max: APPEAL_RATIONALE_MAX })}
          autosize
          minRows={5}
          value={rationale}
          onChange={(event) => setRationale(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={error}
          withAsterisk
        />
        <Text size="xs" c="dimmed" aria-live="polite">
          {t('appeals.counter', { count: nonWhitespaceLength(rationale), max: APPEAL_RATIONALE_MAX })}
        </Text>
        <Button type="submit" w="fit-content" loading={make.isPending}>
          {t('appeals.submit')}
        </Button>
      </Stack>
    </form>
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
            {state.can_appeal && <AppealForm state={state} />}
          </>
        ) : (
          <Alert color="gray">{t(`appeals.window.${state.window}`, { date: formatDateLong(state.ends_at) })}</Alert>
        )}
      </Stack>
    </Paper>
  );
}
