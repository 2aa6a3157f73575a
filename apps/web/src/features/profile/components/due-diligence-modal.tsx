import { Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadUserInfo } from '../../../lib/session';

/**
 * The due-diligence modal (spec §2.5): what due diligence is and how it goes, the provider's link, and a refresh
 * button that reloads the user info (GET users/me/) and closes.
 */
export function DueDiligenceModal({ opened, onClose, url }: { opened: boolean; onClose: () => void; url: string | null }) {
  const { t } = useTranslation();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    try {
      await loadUserInfo();
    } finally {
      setRefreshing(false);
      onClose();
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('dueDiligence.modalTitle')} size="lg">
      <Stack>
        <Text size="sm">{t('dueDiligence.intro')}</Text>
        <List size="sm" spacing="xs">
          <List.Item>{t('dueDiligence.steps')}</List.Item>
          <List.Item>{t('dueDiligence.privacy')}</List.Item>
        </List>
        <Group justify="space-between">
          {url ? (
            <Anchor href={url} target="_blank" rel="noopener noreferrer">
              {t('dueDiligence.open')}
            </Anchor>
          ) : (
            <span />
          )}
          <Button onClick={refresh} loading={refreshing}>
            {t('dueDiligence.refresh')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
