import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { logout } from '../../../lib/session';
import { useCloseAccount } from '../api/account-data';

/**
 * Issue 47: closing the account, confirmed with the password (account-data.tsx `CloseAccount`): loaded when the
 * button is pressed, with the dialog's code. The session ends and the app goes to the home page.
 */
export default function CloseAccountDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const close = useCloseAccount();
  const [password, setPassword] = useState('');
  const submit = async () => {
    try {
      await close.mutateAsync(password);
    } catch (error) {
      notifyError(error);
      return;
    }
    onClose();
    await logout().catch(() => undefined);
    notifySuccess('accountData.closed');
    await navigate(paths.home());
  };
  return (
    <Modal opened onClose={onClose} title={t('accountData.closeTitle')}>
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
            <Button variant="default" onClick={onClose}>
              {t('accountData.cancel')}
            </Button>
            <Button type="submit" color="red" disabled={password.length === 0} loading={close.isPending}>
              {t('accountData.confirmClose')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
