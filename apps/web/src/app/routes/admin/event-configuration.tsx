import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// TODO(issue 3): the tab's content.
export default function AdminEventConfiguration() {
  const { t } = useTranslation();
  return <Title order={2} size="h3">{t('admin.eventConfiguration')}</Title>;
}
