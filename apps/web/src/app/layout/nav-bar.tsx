import { Anchor, Box, Burger, Button, Container, Drawer, Group, Image, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { switchActive } from '@cr/contract/events';
import { canReview, isModerator } from '@cr/contract/subscriptions';
import { useCurrentEvents } from '../../features/events/api/events';
import { StageBadge } from '../../features/events/components/stage-badge';
import { SubscribeButton } from './subscribe-button';
import { notifyError, notifySuccess } from '../../lib/notify';
import { isAdmin, logout, useSession } from '../../lib/session';

interface LinkItem {
  to: string;
  label: string;
  end?: boolean;
}

/** The links of spec §2.3, each with its condition. */
function useLinks(): LinkItem[] {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  const admin = useSession(isAdmin);
  const user = useSession((state) => (state.logged ? state.userInfo : null));
  const { events } = useCurrentEvents();
  // Reviewing: a current event the user can review while its review submission is enabled.
  const reviewer =
    !!user && events.some(({ event, config }) => switchActive(config, 'review_submission_enabled') && canReview(user, event.row_id));
  // Moderating: a current event the user moderates while its moderation is enabled.
  const moderator =
    !!user && events.some(({ event, config }) => switchActive(config, 'moderation_submission_enabled') && isModerator(user, event.row_id));
  const links: LinkItem[] = [
    { to: paths.home(), label: t('nav.home'), end: true },
    { to: paths.proposals(), label: t('nav.proposals') },
  ];
  if (reviewer) links.push({ to: paths.AllocatedProposals(), label: t('nav.allocatedProposals') });
  links.push({ to: paths.reviews(), label: t('nav.reviews') });
  if (moderator) {
    links.push({ to: paths['allocated-reviews'](), label: t('nav.allocatedReviews') });
    links.push({ to: paths['moderated-reviews'](), label: t('nav.moderatedReviews') });
  }
  if (admin) links.push({ to: paths.admin(), label: t('nav.admin') });
  if (logged) links.push({ to: paths.profile(), label: t('nav.profile') });
  else links.push({ to: paths.login(), label: t('nav.login') });
  return links;
}

function Links({ onNavigate, direction }: { onNavigate?: () => void; direction: 'row' | 'column' }) {
  const links = useLinks();
  const Wrapper = direction === 'row' ? Group : Stack;
  return (
    <Wrapper gap="sm" wrap="nowrap">
      {links.map((link) => (
        <Anchor
          key={link.to}
          component={NavLink}
          to={link.to}
          end={link.end}
          onClick={onNavigate}
          className="nav-link"
          c="dark.7"
          fw={500}
          size={direction === 'row' ? 'sm' : undefined}
          style={{ whiteSpace: 'nowrap' }}
        >
          {link.label}
        </Anchor>
      ))}
    </Wrapper>
  );
}

function useLogout() {
  const navigate = useNavigate();
  return async () => {
    try {
      await logout();
      notifySuccess('notify.loggedOut');
    } catch (error) {
      notifyError(error, 'notify.logoutFailed');
    }
    navigate(paths.login());
  };
}

/**
 * The account menu of the wide bar: the e-mail address (however long) and Logout, one click away, so that the bar
 * keeps one row whatever the address (issue 12 item 6).
 */
function AccountMenu() {
  const { t } = useTranslation();
  const onLogout = useLogout();
  const email = useSession((state) => state.userInfo?.email);
  return (
    <Menu position="bottom-end" keepMounted withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="xs" px={6} aria-label={t('nav.accountMenu')} rightSection={<IconChevronDown size={14} />}>
          <IconUserCircle size={20} />
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

/**
 * The navigation bar (spec §2.3), one row at any width: from `lg` the links, stage, Subscribe and the account menu;
 * below it a drawer holds the links and the account, leaving brand, stage, Subscribe and the burger; below `xs` the stage
 * reads short and Subscribe moves into the drawer, so that brand, stage and burger keep one line at 390 px (issue 19).
 */
export function NavBar() {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  const [opened, { toggle, close }] = useDisclosure(false);
  return (
    <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', background: 'white' }}>
      <Container size="xl">
        <Group justify="space-between" wrap="nowrap" gap="md">
          <Group gap="md" wrap="nowrap" miw={0}>
            <Anchor component={NavLink} to={paths.home()} underline="never" c="dark.8" style={{ flexShrink: 0 }} data-testid="nav-brand">
              <Group gap={8} wrap="nowrap">
                <Image src="/logo.svg" alt="" w={28} h={28} />
                <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {t('app.title')}
                </Text>
              </Group>
            </Anchor>
            <Box component="nav" aria-label={t('nav.label')} visibleFrom="lg">
              <Links direction="row" />
            </Box>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <StageBadge />
            <Box visibleFrom="xs">
              <SubscribeButton />
            </Box>
            {logged && (
              <Box visibleFrom="lg">
                <AccountMenu />
              </Box>
            )}
            <Burger opened={opened} onClick={toggle} hiddenFrom="lg" aria-label={t('nav.openMenu')} />
          </Group>
        </Group>
      </Container>
      <Drawer opened={opened} onClose={close} title={t('app.title')} hiddenFrom="lg" size="xs">
        <Stack component="nav" aria-label={t('nav.label')}>
          {/* Below 576 px the bar holds brand, stage and the menu button only (issue 19): Subscribe waits here. */}
          <Box hiddenFrom="xs">
            <SubscribeButton />
          </Box>
          <Links direction="column" onNavigate={close} />
          {logged && <DrawerAccount />}
        </Stack>
      </Drawer>
    </Box>
  );
}
