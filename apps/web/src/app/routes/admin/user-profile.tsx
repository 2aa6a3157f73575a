import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { displayCatalystId } from '@cr/contract/rules';
import { PageHeading } from '../../../components/page-heading';
import { adminUserQuery } from '../../../features/admin/api/users';
import { ProfileView } from '../../../features/profile/components/profile-view';

/** /admin/users/{catalystId}: any user's profile, read-only, for an admin (spec §2.16). */
export default function AdminUserProfile() {
  const { t } = useTranslation();
  const catalystId = useParams().catalystId ?? '';
  const { data, isLoading, isError } = useQuery(adminUserQuery(catalystId));
  if (isLoading) return <Text>{t('common.loading')}</Text>;
  if (isError || !data) {
    return (
      <Stack>
        <PageHeading title={t('errors.userNotFoundTitle')} />
        <Alert color="red">{t('errors.userNotFound')}</Alert>
      </Stack>
    );
  }
  return (
    <Stack>
      <PageHeading title={displayCatalystId(data.catalyst_id.id)} />
      <ProfileView user={data} />
    </Stack>
  );
}
