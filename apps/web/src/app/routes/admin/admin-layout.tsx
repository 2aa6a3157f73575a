import { Alert, Box, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';
import { isAdmin, useSession } from '../../../lib/session';

const TABS = ['events', 'users', 'status', 'mail', 'audit'] as const;

/** The admin area (spec §2.17): its tabs (the mail queue's since issue 27, the audit log's since issue 28), and the admin-only message for everyone else. */
export default function AdminLayout() {
  const { t } = useTranslation();
  const admin = useSession(isAdmin);
  const location = useLocation();
  const navigate = useNavigate();
  if (!admin) {
    return (
      <Alert color="red" title={t('admin.title')} role="alert">
        {t('errors.adminOnly')}
      </Alert>
    );
  }
  const tab = TABS.find((name) => location.pathname === `/admin/${name}`);
  // The tabs are headed 'Admin'; a page below them (a user's profile, an event's configuration) has its own h1.
  // `admin-area` lays every admin form out in one column below 992 px (styles.css, issue 19 item 4).
  if (!tab) {
    return (
      <Box className="admin-area">
        <Outlet />
      </Box>
    );
  }
  return (
    <Box className="admin-area">
      <PageHeading title={t('admin.title')} />
      <Tabs value={tab} onChange={(value) => value && navigate(paths[`admin-${value as (typeof TABS)[number]}`]())}>
        <Tabs.List mb="lg">
          {TABS.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`admin.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* Every tab has its panel (aria-controls points at it); only the route's panel holds the page. */}
        {TABS.map((name) => (
          <Tabs.Panel key={name} value={name}>
            {name === tab && <Outlet />}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Box>
  );
}
