import { Anchor, Box, Burger, Button, Container, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useIsNarrow } from '../../components/responsive-list';
import { paths } from '../../config/paths';
import { StageBadge } from '../../features/events/components/stage-badge';
import { LanguageSelect } from '../../features/profile/components/language-select';
import { useSession } from '../../lib/session';
import { AccountButtonContent, accountButtonProps } from './account-button';
import { Links } from './nav-links';
import { SubscribeButton } from './subscribe-button';

const loadMenus = () => import('./nav-menus');
const AccountMenu = lazy(() => loadMenus().then((module) => ({ default: module.AccountMenu })));
const NavDrawer = lazy(() => loadMenus().then((module) => ({ default: module.NavDrawer })));

/**
 * The account menu's button until it is first pressed: the menu (its popover and focus trap, 26 KB compressed) loads
 * then and opens at once, and is fetched ahead when the pointer or the focus reaches the button (issue 30 item 5: not
 * in any page's first load). The same look and size as the menu's own button, so that the bar does not move.
 */
function AccountButton({ onOpen, pressed }: { onOpen: () => void; pressed: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      {...accountButtonProps}
      aria-label={t('nav.accountMenu')}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-busy={pressed || undefined}
      onPointerEnter={() => void loadMenus()}
      onFocus={() => void loadMenus()}
      onClick={onOpen}
    >
      <AccountButtonContent />
    </Button>
  );
}

const HEADER_STYLE = {
  paddingBlock: 'var(--mantine-spacing-sm)',
  borderBottom: '1px solid var(--mantine-color-gray-3)',
  background: 'white',
};
const BRAND_STYLE = { color: 'var(--mantine-color-dark-8)', flexShrink: 1, minWidth: 0 };

/**
 * The navigation bar (spec §2.3), one row at any width: from `lg` the links, stage, Subscribe and the account menu;
 * below it a drawer holds the links and the account, leaving brand, stage, Subscribe and the burger; below `xs` the stage
 * reads short and Subscribe moves into the drawer, so that brand, stage and burger keep one line at 390 px (issue 19).
 * Its frame is Mantine's container, groups and anchor.
 */
export function NavBar() {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  // The bar's links and language menu show from `lg` up; narrower screens do not render them at all (a phone's first
  // render, issue 30 item 5), they have the drawer's. CSS (`visibleFrom`) still hides them until the query answers.
  const wide = !useIsNarrow('lg');
  const [opened, { toggle, close }] = useDisclosure(false);
  const [drawerWanted, setDrawerWanted] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  return (
    <header style={HEADER_STYLE}>
      <Container size="xl">
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Group gap="md" wrap="nowrap" miw={0}>
            {/* The brand gives way first: a longer name (a translation) ends in an ellipsis, never under the stage. */}
            <Anchor
              component={NavLink}
              to={paths.home()}
              underline="never"
              style={BRAND_STYLE}
              data-testid="nav-brand"
              title={t('app.title')}
            >
              <Group gap={8} wrap="nowrap">
                <img src="/logo.svg" alt="" width={28} height={28} style={{ display: 'block', flexShrink: 0 }} />
                <Text truncate="end" fw={700}>
                  {t('app.title')}
                </Text>
              </Group>
            </Anchor>
            {wide && (
              <Box component="nav" aria-label={t('nav.label')} visibleFrom="lg">
                <Links direction="row" />
              </Box>
            )}
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            {wide && (
              <Box visibleFrom="lg">
                <LanguageSelect testId="nav-language" />
              </Box>
            )}
            <StageBadge />
            <Box visibleFrom="xs">
              <SubscribeButton />
            </Box>
            {logged && (
              <Box visibleFrom="lg">
                {menuWanted ? (
                  <Suspense fallback={<AccountButton onOpen={() => undefined} pressed />}>
                    <AccountMenu defaultOpened />
                  </Suspense>
                ) : (
                  <AccountButton onOpen={() => setMenuWanted(true)} pressed={false} />
                )}
              </Box>
            )}
            <Burger
              opened={opened}
              onClick={() => {
                setDrawerWanted(true);
                toggle();
              }}
              hiddenFrom="lg"
              aria-label={t('nav.openMenu')}
            />
          </Group>
        </Group>
      </Container>
      {drawerWanted && (
        <Suspense fallback={null}>
          <NavDrawer opened={opened} onClose={close} />
        </Suspense>
      )}
    </header>
  );
}
