import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { paths } from '../../../config/paths';

/** The password-reset-requested confirmation (route name reset-requested). */
export default function CheckYourInbox() {
  const { t } = useTranslation();
  return (
    <Stack maw={560} mx="auto">
      <PageHeading title={t('reset.checkInboxTitle')} />
      <Paper withBorder p="lg">
        <Stack>
          <Text>{t('reset.checkInboxText')}</Text>
          <Anchor component={Link} to={paths.login()}>
            {t('reset.backToLogin')}
          </Anchor>
        </Stack>
      </Paper>
    </Stack>
  );
}
