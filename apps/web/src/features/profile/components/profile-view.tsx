import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { displayCatalystId } from '@cr/contract/rules';
import { UserRole, type UserInfo } from '@cr/contract/users';
import { CopyButton } from '../../../components/copy-button';
import { formatDateLong } from '../../../lib/format';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function PersonalInfo({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode][] = [
    [
      t('profile.catalystId'),
      <Group gap={4} wrap="nowrap" key="cid">
        <Text style={{ wordBreak: 'break-all' }}>{displayCatalystId(user.catalyst_id.id)}</Text>
        <CopyButton value={displayCatalystId(user.catalyst_id.id)} />
      </Group>,
    ],
    [
      t('profile.email'),
      <Group gap="xs" key="email">
        <Text>{user.email}</Text>
        <Badge color={user.catalyst_id.email_verified ? 'green' : 'gray'} variant="light">
          {user.catalyst_id.email_verified ? t('profile.emailVerified') : t('profile.emailNotVerified')}
        </Badge>
      </Group>,
    ],
    [t('profile.status'), t(`profile.accountStatus.${user.catalyst_id.status}`)],
    [t('profile.onChain'), t(`profile.rbacStatus.${user.catalyst_id.rbac_reg_status}`)],
    [t('profile.role'), user.extra.role === UserRole.admin ? t('profile.admin') : t('profile.user')],
    [t('profile.registeredAt'), formatDateLong(user.extra.registered_at)],
  ];
  return (
    <Table variant="vertical" withTableBorder={false}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={220}>{label}</Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** The user's subscriptions, newest first (spec §2.16). */
function Subscriptions({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const items = user.extra.subscriptions;
  if (items.length === 0) return <Text c="dimmed">{t('profile.noSubscriptions')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" aria-label={t('profile.subscriptions')}>
        <Table.Thead>
          <Table.Tr>
            {['event', 'level', 'status', 'anonymousId', 'categories', 'subscribedAt'].map((name) => (
              <Table.Th key={name}>{t(`profile.subscriptionColumns.${name}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.row_id}>
              <Table.Td>{item.event.name}</Table.Td>
              <Table.Td>{`LV${item.role}`}</Table.Td>
              <Table.Td>{t(`profile.subscriptionStatus.${item.status}`, { defaultValue: String(item.status) })}</Table.Td>
              <Table.Td ff="monospace">{item.extra.anonymous_id}</Table.Td>
              <Table.Td>{item.extra.preferred_categories.map((category) => category.title).join(', ')}</Table.Td>
              <Table.Td>{formatDateLong(item.extra.subscribed_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A user's profile sections (spec §2.16); the viewer's own profile adds its forms as children. */
export function ProfileView({ user, children }: { user: UserInfo; children?: ReactNode }) {
  const { t } = useTranslation();
  const historic = user.extra.historic_stats.reviews;
  const current = user.extra.stats.reviews;
  return (
    <Stack>
      <Section title={t('profile.personal')}>
        <PersonalInfo user={user} />
      </Section>
      <Section title={t('profile.subscriptions')}>
        <Subscriptions user={user} />
      </Section>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Section title={t('profile.historic')}>
          <Group gap="xl">
            <Stat label="submitted" value={historic.submitted} />
            <Stat label="valid" value={historic.valid} />
            <Stat label="funds" value={historic.active_funds} />
          </Group>
        </Section>
        <Section title={t('profile.current')}>
          <Group gap="xl">
            <Stat label="allocations" value={current.allocations} />
            <Stat label="submitted" value={current.submitted} />
          </Group>
        </Section>
      </SimpleGrid>
      {children}
    </Stack>
  );
}
