import { AppealDecision, appealReasonsFor, CUSTOM_REASON_MAX, moderationMessages } from '@cr/contract/plain';
import { Button, Group, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { appealDecisionFields, type AppealDecisionPublic, type AppealPublic } from '@cr/contract/appeals';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDecideAppeal } from '../api/appeals';

interface Draft {
  decision: 0 | 1 | null;
  reason: string | null;
  custom: string;
}

const draftOf = (saved: AppealDecisionPublic | null): Draft =>
  saved
    ? { decision: saved.decision === 1 ? 1 : 0, reason: saved.predefined_reason, custom: saved.custom_rationale ?? '' }
    : { decision: null, reason: null, custom: '' };

/**
 * A fresh moderator's decision on an appeal (issue 28 item 2), like the moderation form (spec §2.15, §5): uphold (the
 * review is included: the approval reasons) or reject (it stays excluded: the exclusion reasons), 'other' opening a
 * custom text; editable until the appeal is decided.
 */
export function AppealDecisionForm({ appeal }: { appeal: AppealPublic }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(appeal.my_decision));
  const [attempted, setAttempted] = useState(false);
  const decide = useDecideAppeal(appeal.row_id);
  const isDecided = appeal.status !== 'allocated';
  const group = draft.decision === AppealDecision.upheld ? 'included' : 'excluded';
  const reasonLabel = (reason: string) => t(`moderation.reasons.${group}.${reason}`);
  const choose = (decision: 0 | 1) => decision !== draft.decision && setDraft({ decision, reason: null, custom: '' });
  const values =
    draft.decision === null || draft.reason === null
      ? null
      : {
          decision: draft.decision,
          predefined_reason: draft.reason,
          rationale: draft.reason === 'other' ? draft.custom.trim() : reasonLabel(draft.reason),
          custom_rationale: draft.reason === 'other' ? draft.custom.trim() : null,
        };
  const parsed = values ? appealDecisionFields.safeParse(values) : null;
  const save = async () => {
    setAttempted(true);
    if (!parsed?.success) return;
    try {
      await decide.mutateAsync(parsed.data);
      notifySuccess('appeals.decisionSaved');
    } catch (error) {
      notifyError(error, 'appeals.decisionFailed');
    }
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="appeal-decision-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="appeal-decision-title">
          {t('appeals.decisionTitle')}
        </Title>
        {isDecided && <Text size="sm">{t('appeals.decidedNoChange')}</Text>}
        <Group gap="sm" role="group" aria-label={t('appeals.decisionLabel')}>
          <Button
            color="green"
            variant={draft.decision === AppealDecision.upheld ? 'filled' : 'outline'}
            aria-pressed={draft.decision === AppealDecision.upheld}
            onClick={() => choose(AppealDecision.upheld)}
            disabled={isDecided}
          >
            {t('appeals.uphold')}
          </Button>
          <Button
            color="red"
            variant={draft.decision === AppealDecision.rejected ? 'filled' : 'outline'}
            aria-pressed={draft.decision === AppealDecision.rejected}
            onClick={() => choose(AppealDecision.rejected)}
            disabled={isDecided}
          >
            {t('appeals.reject')}
          </Button>
        </Group>
        {attempted && draft.decision === null && (
          <Text size="sm" c="red.8" role="alert">
            {moderationMessages.classificationRequired}
          </Text>
        )}
        {draft.decision !== null && (
          <Radio.Group
            label={t('moderation.reasonLabel')}
            value={draft.reason}
            onChange={(reason) => setDraft({ ...draft, reason, custom: reason === 'other' ? draft.custom : '' })}
            error={attempted && draft.reason === null ? moderationMessages.reasonRequired : undefined}
          >
            <Stack gap={6} mt="xs">
              {appealReasonsFor(draft.decision).map((reason) => (
                <Radio key={reason} value={reason} label={reasonLabel(reason)} disabled={isDecided} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {draft.reason === 'other' && (
          <Textarea
            label={t('moderation.customLabel')}
            value={draft.custom}
            maxLength={CUSTOM_REASON_MAX}
            onChange={(event) => setDraft({ ...draft, custom: event.currentTarget.value })}
            error={attempted && !draft.custom.trim() ? moderationMessages.customRationaleRequired : undefined}
            disabled={isDecided}
          />
        )}
        {!isDecided && (
          <Button w="fit-content" onClick={() => void save()} loading={decide.isPending}>
            {t('appeals.saveDecision')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
