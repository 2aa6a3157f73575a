import { Box, Button, Drawer, Menu, Stack, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session';
import { AccountButtonContent, accountButtonProps } from './account-button';
import { Links, useLogout } from './nav-links';
import { SubscribeButton } from './subscribe-button';
import { LanguageSelect } from '../../features/profile/components/language-select';

// The wide bar's account menu and the phone drawer, loaded when first needed: the menu when its button is first
// pressed (issue 30 item 5), the drawer when the burger is (issue 16).

/**
 * The account menu of the wide bar: the e-mail address (however long) and Logout, one click away, so that the bar
 * keeps one row whatever the address (issue 12 item 6).
 */
export function AccountMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t } = useTranslation();
  const onLogout = useLogout();
  const email = useSession((state) => state.userInfo?.email);
  return (
    <Menu position="bottom-end" keepMounted withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <Button {...accountButtonProps} aria-label={t('nav.accountMenu')}>
          <AccountButtonContent />
        </Button>
      </Menu.Target>
      <Menu.Dropdown maw={360}>
        {email && (
          <Menu.Label data-testid="nav-email" style={{ overflowWrap: 'anywhere' }}>
            {email}
          </Menu.Label>
        )}
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={onLogout}>
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The phone drawer's account block: the e-mail address on its own lines, and Logout. */
function DrawerAccount() {
  const { t } = useTranslation();
  const onLogout = useLogout();
  const email = useSession((state) => state.userInfo?.email);
  return (
    <Stack gap="xs">
      {email && (
        <Text size="sm" c="dimmed" data-testid="nav-email" style={{ overflowWrap: 'anywhere' }}>
          {email}
        </Text>
      )}
      <Button variant="light" size="xs" onClick={onLogout} w="fit-content">
        {t('nav.logout')}
      </Button>
    </Stack>
  );
}

/** The phone drawer (below `lg`): the links, Subscribe below 576 px, and the account. */
export function NavDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  return (
    <Drawer opened={opened} onClose={onClose} title={t('app.title')} hiddenFrom="lg" size="xs">
      <Stack component="nav" aria-label={t('nav.label')}>
        {/* Below 576 px the bar holds brand, stage and the menu button only (issue 19): Subscribe waits here. */}
        <Box hiddenFrom="xs">
          <SubscribeButton />
        </Box>
        <Links direction="column" onNavigate={onClose} />
        {logged && <DrawerAccount />}
        <LanguageSelect testId="drawer-language" />
      </Stack>
    </Drawer>
  );
}
