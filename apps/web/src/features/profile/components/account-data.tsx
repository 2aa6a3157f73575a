import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconDownload, IconUserX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { logout } from '../../../lib/session';
import { downloadMyData, useCloseAccount, type DataFormat } from '../api/account-data';

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
 * Issue 47: "Close account", confirmed with the password. The account's personal data is erased; what the person wrote
 * in finished rounds stays under the anonymous id; the session ends and the app goes to the home page.
 */
export function CloseAccount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const close = useCloseAccount();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const dismiss = () => {
    setOpened(false);
    setPassword('');
  };
  const submit = async () => {
    try {
      await close.mutateAsync(password);
    } catch (error) {
      notifyError(error);
      return;
    }
    dismiss();
    await logout().catch(() => undefined);
    notifySuccess('accountData.closed');
    await navigate(paths.home());
  };
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
      <Modal opened={opened} onClose={dismiss} title={t('accountData.closeTitle')}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <Alert color="red">{t('accountData.closeWarning')}</Alert>
            <PasswordInput
              label={t('accountData.password')}
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={dismiss}>
                {t('accountData.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={password.length === 0} loading={close.isPending}>
                {t('accountData.confirmClose')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
