import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { CurrentEvents } from '../../features/events/components/current-events';
import { isInactive, useSession } from '../../lib/session';

/** Home (its content is ours, spec §2.1): what the product is, and a clear next step for this visitor. */
export default function Home() {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  const inactive = useSession(isInactive);
  let next;
  if (!logged) {
    next = (
      <Stack gap="xs">
        <Text>{t('home.registerHint')}</Text>
        <Group>
          <Button component={Link} to={paths.register()}>
            {t('home.registerCta')}
          </Button>
          <Button component={Link} to={paths.login()} variant="light">
            {t('home.loginCta')}
          </Button>
        </Group>
      </Stack>
    );
  } else {
    next = (
      <Stack gap="xs">
        <Text>{inactive ? t('home.activateHint') : t('home.loggedInHint')}</Text>
        <Button component={Link} to={paths.profile()} w="fit-content">
          {t('home.profileCta')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={1}>{t('home.title')}</Title>
        <Text size="lg">{t('home.lead')}</Text>
        <Text c="dimmed">{t('home.what')}</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('home.nextStepTitle')}
          </Title>
          {next}
        </Card>
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('home.browseCta')}
          </Title>
          <Text mb="sm">{t('home.browseHint')}</Text>
          <Button component={Link} to={paths.proposals()} variant="light" w="fit-content">
            {t('home.browseCta')}
          </Button>
        </Card>
      </SimpleGrid>
      <CurrentEvents />
      {/* Issue 48: the finished rounds' open data, for anyone to recompute. */}
      <Card withBorder padding="lg" component="section" aria-labelledby="home-open-data">
        <Title order={2} size="h4" mb="sm" id="home-open-data">
          {t('home.openDataTitle')}
        </Title>
        <Text mb="sm">{t('home.openDataHint')}</Text>
        <Button component={Link} to={paths['open-data-rounds']()} variant="light" w="fit-content">
          {t('home.openDataCta')}
        </Button>
      </Card>
    </Stack>
  );
}
