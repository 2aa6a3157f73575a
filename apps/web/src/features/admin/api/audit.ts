import { queryOptions } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import type { AuditEntry } from '@cr/contract/events';
import type { AuditChainStatus } from '@cr/contract/open-data';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The audit tab's filters (issue 28 item 4), as its query string keeps them. */
export interface AuditFilters {
  event_id?: number | undefined;
  action?: string | undefined;
  actor?: string | undefined;
}

export const auditKeys = {
  all: [...queryRoots.admin, 'audit'] as const,
  page: (filters: AuditFilters, page: number, size: number) => [...queryRoots.admin, 'audit', 'page', { ...filters, page, size }] as const,
  actions: [...queryRoots.admin, 'audit', 'actions'] as const,
};

/** `GET admin/audit/?event_id&action&actor&size&page`: newest first. Every admin write makes it stale (the admin root). */
export const auditPageQuery = (filters: AuditFilters, page: number, size: number) =>
  queryOptions({
    queryKey: auditKeys.page(filters, page, size),
    queryFn: () =>
      api<Paged<AuditEntry>>('admin/audit/', {
        query: {
          size,
          page,
          ...(filters.event_id ? { event_id: filters.event_id } : {}),
          ...(filters.action ? { action: filters.action } : {}),
          ...(filters.actor ? { actor: filters.actor } : {}),
        },
      }),
    placeholderData: (previous) => previous,
  });

/** `GET admin/audit/actions/`: the actions the log holds, for the action filter. */
export const auditActionsQuery = queryOptions({
  queryKey: auditKeys.actions,
  queryFn: () => api<string[]>('admin/audit/actions/'),
});

/** `GET admin/audit/chain/` (issue 48): whether the audit log's hash chain verifies, and its head. */
export const auditChainQuery = queryOptions({
  queryKey: [...queryRoots.admin, 'audit', 'chain'] as const,
  queryFn: () => api<AuditChainStatus>('admin/audit/chain/'),
});
