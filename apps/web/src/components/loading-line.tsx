import { Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** 'Loading…' at the end of a list whose page loads; the Loader is decoration, the text is what a screen reader reads. */
export function LoadingLine() {
  const { t } = useTranslation();
  return (
    <Group justify="center" gap="xs" py="sm">
      <Loader size="sm" aria-hidden />
      <Text size="sm" c="dimmed">
        {t('common.loading')}
      </Text>
    </Group>
  );
}
