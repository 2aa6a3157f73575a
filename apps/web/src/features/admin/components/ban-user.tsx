import { AccountStatus, BAN_REASON_MAX, isClosedCatalystId } from '@cr/contract/plain';
import { Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconBan, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useBanUser, useUnbanUser, type UserTarget } from '../api/user-ban';

interface BanControlsProps {
  /** The user id or Catalyst ID the admin routes take. */
  target: UserTarget;
  /** The Catalyst ID as shown, to name the user in the dialog and the buttons' labels. */
  label: string;
  status: number;
  size?: 'xs' | 'sm';
}

/**
 * Issue 47: Ban (a dialog with the reason the user is shown and the choice to withdraw this round's open work) or, for
 * a banned account, Unban. The server refuses an admin's own account and the last admin with its message.
 */
export function BanControls({ target, label, status, size = 'xs' }: BanControlsProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [withdraw, setWithdraw] = useState(false);
  const ban = useBanUser();
  const unban = useUnbanUser();

  // A closed account (issue 47) is no one any more: nothing to ban.
  if (isClosedCatalystId(label)) return null;
  if (status === AccountStatus.banned) {
    const lift = async () => {
      try {
        await unban.mutateAsync(target);
        notifySuccess('ban.unbanned');
      } catch (error) {
        notifyError(error);
      }
    };
    return (
      <Button
        size={size}
        variant="subtle"
        leftSection={<IconCircleCheck size={14} aria-hidden />}
        loading={unban.isPending}
        onClick={() => void lift()}
        aria-label={t('ban.unbanNamed', { id: label })}
      >
        {t('ban.unban')}
      </Button>
    );
  }

  const close = () => {
    setOpened(false);
    setReason('');
    setWithdraw(false);
  };
  const submit = async () => {
    try {
      await ban.mutateAsync({ target, ban: { reason: reason.trim(), withdraw_drafts: withdraw } });
      notifySuccess('ban.banned');
      close();
    } catch (error) {
      notifyError(error);
    }
  };
  const tooLong = reason.length > BAN_REASON_MAX;
  return (
    <>
      <Button
        size={size}
        color="red"
        variant="subtle"
        leftSection={<IconBan size={14} aria-hidden />}
        onClick={() => setOpened(true)}
        aria-label={t('ban.banNamed', { id: label })}
      >
        {t('ban.ban')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('ban.title', { id: label })}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <Text size="sm">{t('ban.intro')}</Text>
            <Textarea
              label={t('ban.reason')}
              description={t('ban.reasonHint')}
              required
              autosize
              minRows={3}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              error={tooLong ? t('ban.reasonTooLong', { max: BAN_REASON_MAX }) : undefined}
            />
            <Checkbox label={t('ban.withdraw')} checked={withdraw} onChange={(event) => setWithdraw(event.currentTarget.checked)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('admin.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!reason.trim() || tooLong} loading={ban.isPending}>
                {t('ban.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
