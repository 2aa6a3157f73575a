import { Anchor, Box, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { DueDiligenceStatus, RegistrationStatus } from '@cr/contract/plain';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBanner } from '../../features/events/components/status-banner';
import { loadMoreStrings } from '../../lib/i18n';
import { isInactive, useSession } from '../../lib/session';
import { OfflineBar } from './offline-bar';

// Loaded when first opened (issue 16: only what a page uses on its first load).
const DueDiligenceModal = lazy(() =>
  Promise.all([import('../../features/profile/components/due-diligence-modal'), loadMoreStrings()]).then(([module]) => ({
    default: module.DueDiligenceModal,
  })),
);

const openDueDiligence: number[] = [DueDiligenceStatus.initialized, DueDiligenceStatus.pending];
const pendingRegistration: number[] = [RegistrationStatus.initialized, RegistrationStatus.not_found, RegistrationStatus.volatile];

/** The red due-diligence bar (spec §2.3); its link opens the due-diligence modal (§2.5). */
function DueDiligenceBar({ url }: { url: string | null }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const [wanted, setWanted] = useState(false);
  return (
    <Box role="alert" bg="red.8" c="white" py={6} px="md" data-testid="due-diligence-bar">
      <Text size="sm" ta="center" fw={600}>
        {t('bars.dueDiligence')}{' '}
        <Anchor
          component="button"
          type="button"
          c="white"
          fw={700}
          td="underline"
          size="sm"
          onClick={() => {
            setWanted(true);
            open();
          }}
        >
          {t('bars.dueDiligenceLink')}
        </Anchor>
      </Text>
      {wanted && (
        <Suspense fallback={null}>
          <DueDiligenceModal opened={opened} onClose={close} url={url} />
        </Suspense>
      )}
    </Box>
  );
}

/** The bars above the navigation (spec §2.3): status messages, then the logged-in user's account bars. */
export function TopBars() {
  const { t } = useTranslation();
  const inactive = useSession(isInactive);
  const user = useSession((state) => (state.logged ? state.userInfo : null));
  const dueDiligence = user?.extra.due_diligence;
  const registrationPending = user ? pendingRegistration.includes(user.catalyst_id.rbac_reg_status) : false;
  return (
    <Box>
      <StatusBanner />
      <OfflineBar />
      {inactive && (
        <Box role="alert" bg="red.8" c="white" py={6} px="md" data-testid="activation-bar">
          <Text size="sm" ta="center" fw={600}>
            {t('bars.activationRequired')}
          </Text>
        </Box>
      )}
      {dueDiligence && openDueDiligence.includes(dueDiligence.status) && <DueDiligenceBar url={dueDiligence.url} />}
      {registrationPending && (
        <Box role="status" bg="yellow.3" c="dark.9" py={6} px="md" data-testid="registration-bar">
          <Text size="sm" ta="center" fw={600}>
            {t('bars.registrationPending')}
            <Text span size="sm" fw={400}>
              {' · '}
              {t('bars.registrationPendingHint')}
            </Text>
          </Text>
        </Box>
      )}
    </Box>
  );
}
