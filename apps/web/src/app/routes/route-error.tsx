import { Alert, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <Container size="sm" py="xl">
      <Alert color="red" title={t('notify.errorTitle')}>
        {t('notify.unexpected')}
      </Alert>
    </Container>
  );
}
