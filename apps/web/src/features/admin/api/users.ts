import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { AdminUserRow, UserInfo } from '@cr/contract/users';
import { api } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { familyKeys, queryRoots } from '../../../lib/query-keys';

export const adminUsersKeys = {
  all: [...queryRoots.admin, 'users'] as const,
  page: (page: number, size: number, search: string) => [...queryRoots.admin, 'users', page, size, search] as const,
  /** Every user looked up by Catalyst ID; a prefix of `user`. */
  users: familyKeys.userProfiles,
  user: (catalystId: string) => [...familyKeys.userProfiles, catalystId] as const,
};

/** `GET admin/users?size&page[&search]` (spec §7); a failure toasts and shows an empty table with total 0 (§8). */
export const adminUsersQuery = (page: number, size: number, search: string) =>
  queryOptions({
    queryKey: adminUsersKeys.page(page, size, search),
    queryFn: async (): Promise<Paged<AdminUserRow>> => {
      try {
        return await api<Paged<AdminUserRow>>('admin/users', { query: { size, page, ...(search ? { search } : {}) } });
      } catch (error) {
        notifyError(error, 'errors.fetchUsers');
        return { data: [], page: { total: 0, size, page } };
      }
    },
    placeholderData: (previous) => previous,
  });

/**
 * `GET admin/users/{id}` by Catalyst ID: another user's info for the admin's read-only profile view. A failure toasts
 * (spec §8) and the page shows the unknown-user heading and text.
 */
export const adminUserQuery = (catalystId: string) =>
  queryOptions({
    queryKey: adminUsersKeys.user(catalystId),
    queryFn: async () => {
      try {
        return await api<UserInfo>(`admin/users/${encodeURIComponent(catalystId)}`);
      } catch (error) {
        notifyError(error, 'errors.fetchUser');
        throw error;
      }
    },
    retry: false,
  });
