import { Alert, Button, Code, Collapse, Group, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@cr/contract/events';
import { AUDIT_PAGE_SIZE } from '@cr/contract/history';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { ScrollTable } from '../../../components/scroll-table';
import { auditActionsQuery, auditPageQuery, type AuditFilters } from '../../../features/admin/api/audit';
import { AuditChainStatus } from '../../../features/admin/components/audit-chain-status';
import { eventsPageQuery } from '../../../features/events/api/events';
import { formatDateLong } from '../../../lib/format';
import { useDebouncedText } from '../../../lib/use-debounced-text';

/** The filters as the query string keeps them (`event`, `action`, `actor`); anything unreadable is no filter. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const event = Number(params.get('event') ?? '');
  return {
    event_id: Number.isSafeInteger(event) && event > 0 ? event : undefined,
    action: params.get('action') || undefined,
    actor: params.get('actor') || undefined,
  };
}

/** An entry's parameters and statistics (its before and after) as JSON, shown on demand. */
function Details({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const id = `audit-details-${entry.id}`;
  return (
    <Stack gap={4}>
      <Button variant="subtle" size="compact-sm" aria-expanded={opened} aria-controls={id} onClick={() => setOpened((value) => !value)}>
        {opened ? t('audit.hideDetails') : t('audit.showDetails')}
      </Button>
      <Collapse in={opened} id={id}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs">
          {(['before', 'after'] as const).map((side) => (
            <Stack key={side} gap={2}>
              <Text size="xs" c="dimmed" tt="uppercase">
                {t(`audit.${side}`)}
              </Text>
              <Code block style={{ maxHeight: 320, overflow: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {JSON.stringify(entry[side] ?? null, null, 2)}
              </Code>
            </Stack>
          ))}
        </SimpleGrid>
      </Collapse>
    </Stack>
  );
}

/**
 * The Audit log tab (issue 28 item 4): every audited action, newest first, 25 a page — who, when, the action, its
 * event, and its parameters and statistics (expandable JSON) — filtered by event, action and actor, the filters
 * kept in the query string.
 */
export default function AdminAudit() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [page] = usePageParam();
  const filters = filtersOf(params);
  const { data: events } = useQuery(eventsPageQuery(0, 100));
  const { data: actions } = useQuery(auditActionsQuery);
  const { data, isLoading, error } = useQuery(auditPageQuery(filters, page, AUDIT_PAGE_SIZE));

  /** Sets one filter in the query string and goes back to the first page. */
  const setFilter = (key: 'event' | 'action' | 'actor', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if ((current.get(key) ?? '') === (value ?? '')) return current;
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
        return next;
      },
      { replace: key === 'actor' },
    );
  const [actor, setActor] = useDebouncedText(filters.actor ?? '', (value) => setFilter('actor', value));

  // An action's name for people (the raw id stays beside it: the API and the filter's address use it).
  const actionLabel = (action: string) => t(`audit.actionNames.${action.replaceAll('.', '_')}`, { defaultValue: action });
  const eventNames = new Map((events?.data ?? []).map((event) => [event.row_id, event.name]));
  const rows = data?.data ?? [];
  const column = (name: string) => t(`audit.columns.${name}`);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('audit.intro')}
      </Text>
      <AuditChainStatus />
      <Group align="flex-end" gap="md" wrap="wrap" role="group" aria-label={t('audit.filters')}>
        <Select
          label={t('audit.event')}
          placeholder={t('audit.anyEvent')}
          data={(events?.data ?? []).map((event) => ({ value: String(event.row_id), label: event.name }))}
          value={filters.event_id ? String(filters.event_id) : null}
          onChange={(value) => setFilter('event', value)}
          clearable
          searchable
          w={260}
        />
        <Select
          label={t('audit.action')}
          placeholder={t('audit.anyAction')}
          data={(actions ?? []).map((action) => ({
            value: action,
            label: t('audit.actionOption', { label: actionLabel(action), action }),
          }))}
          value={filters.action ?? null}
          onChange={(value) => setFilter('action', value)}
          clearable
          searchable
          w={260}
        />
        <TextInput
          label={t('audit.actor')}
          description={t('audit.actorHint')}
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
          w={320}
        />
        <Button
          variant="default"
          onClick={() => {
            setActor('');
            setParams(new URLSearchParams());
          }}
        >
          {t('audit.clear')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {t('audit.fetchFailed')}
        </Alert>
      )}
      <ScrollTable minWidth={860} label={t('audit.tableLabel')}>
        <Table striped verticalSpacing="sm" aria-label={t('audit.tableLabel')} aria-busy={isLoading}>
          <Table.Thead>
            <Table.Tr>
              {['who', 'when', 'action', 'event', 'details'].map((name) => (
                <Table.Th key={name}>{column(name)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>
                  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                    {entry.actor ?? t('audit.operator')}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateLong(entry.created_at)}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {actionLabel(entry.action)}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {entry.action}
                  </Text>
                </Table.Td>
                <Table.Td>{entry.event_id ? (eventNames.get(entry.event_id) ?? `#${entry.event_id}`) : t('audit.noEvent')}</Table.Td>
                <Table.Td miw={240}>
                  <Details entry={entry} />
                </Table.Td>
              </Table.Tr>
            ))}
            {!isLoading && rows.length === 0 && <EmptyTableRow colSpan={5} />}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <QueryPagination total={data?.page.total ?? 0} size={AUDIT_PAGE_SIZE} />
    </Stack>
  );
}
