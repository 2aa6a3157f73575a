import { Button, Group, Stack, Text } from '@mantine/core';
import { IconDownload, IconUserX } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../lib/notify';
import { downloadMyData, type DataFormat } from '../api/account-data';

const CloseAccountDialog = lazy(() => import('./close-account-dialog'));

/** Issue 47: "Download my data": everything the server keeps about the person, as JSON or as a readable document. */
export function DownloadMyData() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<DataFormat | null>(null);
  const download = async (format: DataFormat) => {
    setBusy(format);
    try {
      await downloadMyData(format);
    } catch (error) {
      notifyError(error, 'accountData.downloadFailed');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('accountData.downloadHint')}
      </Text>
      <Group gap="sm">
        {(['json', 'markdown'] as const).map((format) => (
          <Button
            key={format}
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={busy === format}
            disabled={busy !== null && busy !== format}
            onClick={() => void download(format)}
          >
            {t(`accountData.download.${format}`)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/**
 * Issue 47: "Close account", confirmed with the password in a dialog (close-account-dialog.tsx, loaded when it opens).
 * The account's personal data is erased; what the person wrote in finished rounds stays under the anonymous id.
 */
export function CloseAccount() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('accountData.closeHint')}
      </Text>
      <Button
        color="red"
        variant="outline"
        w="fit-content"
        leftSection={<IconUserX size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('accountData.close')}
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <CloseAccountDialog onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
