import { Burger, Button } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { ANCHOR_CLASS, PlainContainer, PlainGroup, TEXT_CLASS } from '../../components/plain';
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
 * Its layout (header, container, groups, the brand) is plain elements with Mantine's classes (components/plain.tsx):
 * a phone's first render of the frame was ~0.3 s at Lighthouse's speed (issue 30 item 5).
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
      <PlainContainer size="xl">
        <PlainGroup justify="space-between" wrap="nowrap" gap="md">
          <PlainGroup gap="md" wrap="nowrap" style={{ minWidth: 0 }}>
            {/* The brand gives way first: a longer name (a translation) ends in an ellipsis, never under the stage. */}
            <NavLink
              to={paths.home()}
              className={ANCHOR_CLASS}
              data-underline="never"
              style={BRAND_STYLE}
              data-testid="nav-brand"
              title={t('app.title')}
            >
              <PlainGroup gap={8} wrap="nowrap">
                <img src="/logo.svg" alt="" width={28} height={28} style={{ display: 'block', flexShrink: 0 }} />
                <p className={TEXT_CLASS} data-truncate="end" style={{ fontWeight: 700 }}>
                  {t('app.title')}
                </p>
              </PlainGroup>
            </NavLink>
            {wide && (
              <nav aria-label={t('nav.label')} className="mantine-visible-from-lg">
                <Links direction="row" />
              </nav>
            )}
          </PlainGroup>
          <PlainGroup gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            {wide && (
              <div className="mantine-visible-from-lg">
                <LanguageSelect testId="nav-language" />
              </div>
            )}
            <StageBadge />
            <div className="mantine-visible-from-xs">
              <SubscribeButton />
            </div>
            {logged && (
              <div className="mantine-visible-from-lg">
                {menuWanted ? (
                  <Suspense fallback={<AccountButton onOpen={() => undefined} pressed />}>
                    <AccountMenu defaultOpened />
                  </Suspense>
                ) : (
                  <AccountButton onOpen={() => setMenuWanted(true)} pressed={false} />
                )}
              </div>
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
          </PlainGroup>
        </PlainGroup>
      </PlainContainer>
      {drawerWanted && (
        <Suspense fallback={null}>
          <NavDrawer opened={opened} onClose={close} />
        </Suspense>
      )}
    </header>
  );
}
