import { APPEAL_RATIONALE_MAX, APPEAL_RATIONALE_MIN, nonWhitespaceLength } from '@cr/contract/plain';
import { newAppeal, type AppealState } from '@cr/contract/appeals';
import { Button, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useMakeAppeal } from '../api/appeals';

/** The appeal form of a review's author: the rationale, checked by the contract's rule as the server checks it. */
export default function AppealForm({ state }: { state: AppealState }) {
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
