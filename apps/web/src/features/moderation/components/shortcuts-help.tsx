import { Group, Kbd, Modal, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../shortcuts';

/** The help overlay of the moderator's keys, opened with '?' (issue 14 item 6). */
export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('moderation.shortcutsTitle')} closeButtonProps={{ 'aria-label': t('common.close') }}>
      <Table aria-label={t('moderation.shortcutsTitle')}>
        <Table.Tbody>
          {SHORTCUTS.map((shortcut) => (
            <Table.Tr key={shortcut.action}>
              <Table.Td>
                <Group gap={4}>
                  {shortcut.keys.map((key) => (
                    <Kbd key={key}>{key}</Kbd>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{t(`moderation.shortcuts.${shortcut.action}`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
