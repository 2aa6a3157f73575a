import { Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ProposalPublic } from '@cr/contract/proposals';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

type Score = NonNullable<ProposalPublic['score']>;

/**
 * The proposal's aggregate score (spec §2.12, G-001): overall, impact, feasibility and value for money, each out of
 * 5 and shown to 2 decimals. The page shows it only while moderation is not enabled for the event (G-002).
 */
export function ScoreWidget({ score }: { score: Score }) {
  const { t } = useTranslation();
  const titleId = useId();
  const items: [string, number][] = [
    [t('proposals.score.overall'), score.overall],
    [t('proposals.score.impact'), score.impact],
    [t('proposals.score.feasibility'), score.feasibility],
    [t('proposals.score.valueForMoney'), score.value_for_money],
  ];
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="lg" data-testid="score-widget">
      <Title order={2} size="h3" id={titleId} mb="sm">
        {t('proposals.score.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {items.map(([label, value]) => {
          const text = t('proposals.score.outOf5', { value: value.toFixed(2) });
          return (
            <Stack key={label} gap={4}>
              <Group justify="space-between" gap="xs">
                <Text fw={600}>{label}</Text>
                <Text>{text}</Text>
              </Group>
              <Progress value={(value / 5) * 100} aria-label={`${label}: ${text}`} />
            </Stack>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}
