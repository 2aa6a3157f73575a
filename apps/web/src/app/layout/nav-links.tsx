import { Anchor, Group, Stack } from '@mantine/core';
import { canReview, isModerator, switchActive } from '@cr/contract/plain';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { useCurrentEvents } from '../../features/events/api/events';
import { notifyError, notifySuccess } from '../../lib/notify';
import { isAdmin, logout, useSession } from '../../lib/session';

interface LinkItem {
  to: string;
  label: string;
  end?: boolean;
}

/** The links of spec §2.3, each with its condition. */
export function useLinks(): LinkItem[] {
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
  // Appeals (issue 28 item 2) come after moderation closes: a current event the user moderates whose moderation is
  // over. While moderation is open its two links take the place (the bar keeps to one row at 1280 px).
  if (user && events.some(({ event, config }) => !switchActive(config, 'moderation_submission_enabled') && isModerator(user, event.row_id)))
    links.push({ to: paths['allocated-appeals'](), label: t('nav.appeals') });
  if (admin) links.push({ to: paths.admin(), label: t('nav.admin') });
  if (logged) links.push({ to: paths.profile(), label: t('nav.profile') });
  else links.push({ to: paths.login(), label: t('nav.login') });
  return links;
}

export function Links({ onNavigate, direction }: { onNavigate?: () => void; direction: 'row' | 'column' }) {
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

export function useLogout() {
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
