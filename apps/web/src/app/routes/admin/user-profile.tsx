import { switchActive, displayCatalystId } from '@cr/contract/plain';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@cr/contract/users';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '../../../config/paths';
import { PageHeading } from '../../../components/page-heading';
import { adminUserQuery } from '../../../features/admin/api/users';
import { BanControls } from '../../../features/admin/components/ban-user';
import { useCurrentEvents } from '../../../features/events/api/events';
import { ProfileView } from '../../../features/profile/components/profile-view';
import { useInvite } from '../../../features/subscriptions/api/subscriptions';
import { formatDateShort } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';

/**
 * The events an admin may invite this user to as level 2: subscription enabled and no level-2 subscription of the
 * user yet (spec §2.16).
 */
function InviteList({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const invite = useInvite();
  const { events } = useCurrentEvents();
  const hasLevel2 = new Set(user.extra.subscriptions.filter((item) => item.role === 2).map((item) => item.event_id));
  const invitable = events
    .filter(({ event, config }) => switchActive(config, 'reviewer_subscription_enabled') && !hasLevel2.has(event.row_id))
    .map(({ event }) => event);
  const send = async (eventId: number) => {
    try {
      await invite.mutateAsync({ event_id: eventId, catalyst_id: displayCatalystId(user.catalyst_id.id) });
      notifySuccess('notify.invitationSent');
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Paper withBorder p="lg" component="section" aria-label={t('invite.title')}>
      <Title order={2} size="h4" mb="md">
        {t('invite.title')}
      </Title>
      {invitable.length === 0 ? (
        <Text c="dimmed">{t('invite.none')}</Text>
      ) : (
        <Stack gap="xs">
          {invitable.map((event) => (
            <Group key={event.row_id} justify="space-between">
              <Text>{event.name}</Text>
              <Button
                size="xs"
                onClick={() => send(event.row_id)}
                loading={invite.isPending && invite.variables?.event_id === event.row_id}
                aria-label={t('invite.toEvent', { name: event.name })}
              >
                {t('invite.send')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The way back to the Users tab from a user's profile. */
function BackToUsers() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths['admin-users']()} size="sm" mb="xs" w="fit-content">
      <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> {t('admin.backToUsers')}
    </Anchor>
  );
}

/** /admin/users/{catalystId}: any user's profile, read-only, for an admin (spec §2.16). */
export default function AdminUserProfile() {
  const { t } = useTranslation();
  const catalystId = useParams().catalystId ?? '';
  const { data, isLoading, isError } = useQuery(adminUserQuery(catalystId));
  if (isLoading) return <Text>{t('common.loading')}</Text>;
  if (isError || !data) {
    return (
      <Stack gap={0}>
        <BackToUsers />
        <PageHeading title={t('errors.userNotFoundTitle')} />
        <Alert color="red">{t('errors.userNotFound')}</Alert>
      </Stack>
    );
  }
  return (
    <Stack gap={0}>
      <BackToUsers />
      <PageHeading title={displayCatalystId(data.catalyst_id.id)} />
      {data.extra.ban && (
        <Alert color="red" mb="md" title={t('ban.bannedTitle', { date: formatDateShort(data.extra.ban.banned_at) })}>
          {data.extra.ban.reason}
        </Alert>
      )}
      <Group mb="md">
        <BanControls
          target={data.catalyst_id.id}
          label={displayCatalystId(data.catalyst_id.id)}
          status={data.catalyst_id.status}
          size="sm"
        />
      </Group>
      <ProfileView user={data} own={false}>
        <InviteList user={data} />
      </ProfileView>
    </Stack>
  );
}
