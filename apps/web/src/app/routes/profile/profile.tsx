import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { displayCatalystId } from '@cr/contract/rules';
import { UserRole, type UserInfo } from '@cr/contract/users';
import { CopyButton } from '../../../components/copy-button';
import { fieldError } from '../../../components/form-field';
import { PageHeading } from '../../../components/page-heading';
import { useChangeEmail } from '../../../features/auth/api/accounts';
import { ChangePasswordForm } from '../../../features/auth/components/change-password-form';
import { changeEmailFormSchema } from '../../../features/auth/schemas';
import { formatDateLong } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { loadUserInfo, useSession } from '../../../lib/session';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
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
  const rows: [string, React.ReactNode][] = [
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

function ChangeEmailForm() {
  const { t } = useTranslation();
  const mutation = useChangeEmail();
  const form = useForm<{ email: string }>({ resolver: zodResolver(changeEmailFormSchema), mode: 'onChange', defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      await mutation.mutateAsync(email.trim());
      notifySuccess('notify.verificationSent');
      form.reset();
    } catch (error) {
      notifyError(error, 'notify.emailChangeFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={420}>
        <Text size="sm" c="dimmed">
          {t('profile.changeEmailHint')}
        </Text>
        <TextInput label={t('fields.email')} type="email" autoComplete="email" {...form.register('email')} error={fieldError(form, 'email', t('fields.email'))} />
        <Button type="submit" variant="light" disabled={!form.formState.isValid || mutation.isPending} loading={mutation.isPending} w="fit-content">
          {t('profile.sendLink')}
        </Button>
      </Stack>
    </form>
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

/** The viewer's own profile (spec §2.16). Subscriptions and statistics fill in with the reviewer features. */
export default function Profile() {
  const { t } = useTranslation();
  const stored = useSession((state) => state.userInfo);
  const query = useQuery({ queryKey: ['users', 'me'], queryFn: loadUserInfo });
  const user = query.data ?? stored;
  if (!user) return <Text>{t('common.loading')}</Text>;
  const historic = user.extra.historic_stats.reviews;
  const current = user.extra.stats.reviews;
  return (
    <Stack>
      <PageHeading title={t('profile.title')} />
      <Section title={t('profile.personal')}>
        <PersonalInfo user={user} />
      </Section>
      <Section title={t('profile.subscriptions')}>
        <Text c="dimmed">{t('profile.noSubscriptions')}</Text>
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
      <Section title={t('profile.changeEmail')}>
        <ChangeEmailForm />
      </Section>
      <Section title={t('profile.changePassword')}>
        <ChangePasswordForm />
      </Section>
    </Stack>
  );
}
