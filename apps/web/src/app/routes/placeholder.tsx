import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/page-heading';

/** A screen whose route, guard and name exist, and whose content arrives with its issue. */
export function Placeholder({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t(titleKey)} />
      <Text c="dimmed">{t('placeholder.notYet')}</Text>
    </>
  );
}
