import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModerationCoverage } from './moderation-coverage';
import { TopUpForm } from './top-up-form';

/**
 * The Moderation Allocation section's coverage part (issue 28 item 1): once the allocation ran, its coverage and the
 * top-up run; before, a line saying it comes then.
 */
export function CoverageSection({
  eventId,
  allocationGenerated,
  outcomesGenerated,
}: {
  eventId: number;
  allocationGenerated: boolean;
  outcomesGenerated: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        {t('adminRuns.coverage.title')}
      </Title>
      {allocationGenerated ? (
        <>
          <ModerationCoverage eventId={eventId} />
          <Title order={3} size="h4">
            {t('adminRuns.topUp.title')}
          </Title>
          <TopUpForm key={eventId} eventId={eventId} outcomesGenerated={outcomesGenerated} />
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {t('adminRuns.coverage.allocationFirst')}
        </Text>
      )}
    </Stack>
  );
}
