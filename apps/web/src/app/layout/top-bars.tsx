import { Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { StatusBanner } from '../../features/events/components/status-banner';
import { isInactive, useSession } from '../../lib/session';

/**
 * The bars above the navigation (spec §2.3). The status banner, the due-diligence and the registration-pending bars
 * join this stack with the features that feed them.
 */
export function TopBars() {
  const { t } = useTranslation();
  const inactive = useSession(isInactive);
  return (
    <Box>
      <StatusBanner />
      {inactive && (
        <Box role="alert" bg="red.8" c="white" py={6} px="md" data-testid="activation-bar">
          <Text size="sm" ta="center" fw={600}>
            {t('bars.activationRequired')}
          </Text>
        </Box>
      )}
    </Box>
  );
}
