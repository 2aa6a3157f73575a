import { ActionIcon, Group, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconSearch, IconUserCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { CardField, ResponsiveList } from '../../../components/responsive-list';
import { ScrollTable } from '../../../components/scroll-table';
import { CopyButton } from '../../../components/copy-button';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { paths } from '../../../config/paths';
import { adminUsersQuery } from '../../../features/admin/api/users';
import { BanControls } from '../../../features/admin/components/ban-user';
import type { AdminUserRow } from '@cr/contract/users';
import { isClosedCatalystId } from '@cr/contract/plain';
import { formatDateShort } from '../../../lib/format';
import { useDebouncedText } from '../../../lib/use-debounced-text';

const PAGE_SIZE = 25;

/** The account status as the Users tab shows it; a closed account (issue 47) says so. */
function useStatusLabel() {
  const { t } = useTranslation();
  return (user: AdminUserRow) =>
    isClosedCatalystId(user.catalyst_id)
      ? t('ban.closedStatus')
      : t(`admin.accountStatus.${user.status}`, { defaultValue: String(user.status) });
}

/** The profile link of a user's row or card. */
function ProfileLink({ catalystId }: { catalystId: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('admin.viewProfile')}>
      <ActionIcon
        component={Link}
        to={paths['admin-user-profile'](catalystId)}
        variant="subtle"
        aria-label={t('admin.viewProfileOf', { id: catalystId })}
      >
        <IconUserCircle size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/** A user on a phone (issue 19): the Catalyst ID (copyable) and the profile link, then e-mail, registration and status. */
function UserCard({ user }: { user: AdminUserRow }) {
  const { t } = useTranslation();
  const statusLabel = useStatusLabel();
  const column = (name: string) => t(`admin.columns.${name}`);
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" gap={4}>
        <Text size="sm" ff="monospace" miw={0} style={{ overflowWrap: 'anywhere' }}>
          {user.catalyst_id}
        </Text>
        <Group gap={0} wrap="nowrap">
          <CopyButton value={user.catalyst_id} />
          <ProfileLink catalystId={user.catalyst_id} />
        </Group>
      </Group>
      <BanControls target={user.id} label={user.catalyst_id} status={user.status} />
      {user.username && <CardField label={column('username')}>{user.username}</CardField>}
      <CardField label={column('email')}>{user.email ?? ''}</CardField>
      <CardField label={column('registered')}>{formatDateShort(user.registered_at)}</CardField>
      <CardField label={column('status')}>{statusLabel(user)}</CardField>
    </Stack>
  );
}

/** The Users tab (spec §2.17): 25 a page, copy the Catalyst ID, open the user's profile; search kept in the query. */
export default function AdminUsers() {
  const { t } = useTranslation();
  const statusLabel = useStatusLabel();
  const [params, setParams] = useSearchParams();
  const [page] = usePageParam();
  // The search follows the typing 300 ms later, never over a pending navigation (a profile clicked right after typing).
  const [search, setSearch] = useDebouncedText(params.get('search') ?? '', (value) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if ((current.get('search') ?? '') === value) return current;
        if (value) next.set('search', value);
        else next.delete('search');
        next.delete('page');
        return next;
      },
      { replace: true },
    ),
  );
  const { data, isLoading } = useQuery(adminUsersQuery(page, PAGE_SIZE, params.get('search') ?? ''));
  const rows = data?.data ?? [];
  const column = (name: string) => t(`admin.columns.${name}`);
  // A username is optional (the `name@` part of a Catalyst ID): its column shows only when someone on the page has one.
  const withUsername = rows.some((user) => user.username);
  const columns = ['catalyst_id', ...(withUsername ? ['username'] : []), 'email', 'registered', 'status'];
  return (
    <>
      <TextInput
        label={t('admin.searchUsers')}
        description={t('admin.searchUsersHint')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
        mb="md"
      />
      <ResponsiveList
        rows={rows}
        label={t('admin.users')}
        isLoading={isLoading}
        reserveRows={PAGE_SIZE}
        rowKey={(user) => user.id}
        card={(user) => <UserCard user={user} />}
        table={(shown, filling) => (
          <ScrollTable minWidth={860} label={t('admin.users')}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('admin.users')} aria-busy={isLoading || filling}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((name) => (
                    <Table.Th key={name}>{column(name)}</Table.Th>
                  ))}
                  <Table.Th>
                    <span className="visually-hidden">{column('actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {/* One word of up to 500 characters: it wraps, so the table never widens past its frame. */}
                        <Text size="sm" ff="monospace" miw={0} style={{ overflowWrap: 'anywhere' }}>
                          {user.catalyst_id}
                        </Text>
                        <CopyButton value={user.catalyst_id} />
                      </Group>
                    </Table.Td>
                    {withUsername && <Table.Td>{user.username ?? ''}</Table.Td>}
                    <Table.Td>{user.email ?? ''}</Table.Td>
                    <Table.Td>{formatDateShort(user.registered_at)}</Table.Td>
                    <Table.Td>{statusLabel(user)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <ProfileLink catalystId={user.catalyst_id} />
                        <BanControls target={user.id} label={user.catalyst_id} status={user.status} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
                {!isLoading && rows.length === 0 && <EmptyTableRow colSpan={columns.length + 1} />}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      />
      <QueryPagination total={data?.page.total ?? 0} size={PAGE_SIZE} />
    </>
  );
}
