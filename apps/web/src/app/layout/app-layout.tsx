import { Box, Container } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { AccountLanguage } from '../../features/profile/components/account-language';
import { Footer } from './footer';
import { NavBar } from './nav-bar';
import { TopBars } from './top-bars';

/** Every navigation scrolls the window to the top (spec §2.1). */
function ScrollToTop() {
  const location = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.key]);
  return null;
}

export function AppLayout() {
  const { t } = useTranslation();
  return (
    <Box style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <ScrollToTop />
      <AccountLanguage />
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <TopBars />
      <NavBar />
      <Container component="main" id="main" size="lg" py="lg" style={{ flex: 1, width: '100%' }}>
        <Outlet />
      </Container>
      <Footer />
    </Box>
  );
}
