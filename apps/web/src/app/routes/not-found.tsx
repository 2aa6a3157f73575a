import { Anchor, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py="xl">
      <Title order={1} size="h2">
        {t('errors.notFound')}
      </Title>
      <Anchor component={Link} to="/">
        {t('errors.backHome')}
      </Anchor>
    </Stack>
  );
}
