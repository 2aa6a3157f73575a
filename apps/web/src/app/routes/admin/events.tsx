import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import type { EventPublic } from '@cr/contract/events';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyTableRow } from '../../../components/empty-table-row';
import { CELL_CLASS, PlainTable, ROW_CLASS } from '../../../components/plain';
import { CardField, ResponsiveList, useIsNarrow } from '../../../components/responsive-list';
import { ScrollTable } from '../../../components/scroll-table';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { paths } from '../../../config/paths';
import { EVENTS_PAGE_SIZE, eventsPageQuery } from '../../../features/events/api/events';
import { formatDateLong } from '../../../lib/format';

// The event form in its modal (the modal, its date-time pickers, react-hook-form and the contract's rules) loads when
// New or Edit first opens it.
const EventFormModal = lazy(() => import('../../../features/events/components/event-form-modal'));

/** An event on a phone (issue 19): its name to configure it, whether it is active, its dates and Edit. */
function EventCard({ event, onEdit }: { event: EventPublic; onEdit: () => void }) {
  const { t } = useTranslation();
  const column = (name: string) => t(`admin.columns.${name}`);
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Anchor
          component={Link}
          to={paths['admin-event'](event.row_id)}
          aria-label={t('admin.configureNamed', { name: event.name })}
          fw={600}
        >
          {event.name}
        </Anchor>
        <ActionIcon variant="subtle" onClick={onEdit} aria-label={t('admin.editNamed', { name: event.name })}>
          <IconPencil size={16} />
        </ActionIcon>
      </Group>
      <Group gap="xs">
        <Badge variant="light" color={event.active ? 'green' : 'gray'}>
          {column('active')}: {event.active ? t('admin.yes') : t('admin.no')}
        </Badge>
        <Text size="xs" c="dimmed">
          {column('id')} {event.row_id}
        </Text>
      </Group>
      <CardField label={column('start')}>{formatDateLong(event.start_time)}</CardField>
      <CardField label={column('end')}>{formatDateLong(event.end_time)}</CardField>
      {event.description && (
        <Text size="sm" c="dimmed" lineClamp={2}>
          {event.description}
        </Text>
      )}
    </Stack>
  );
}

/** The Events tab (spec §2.17): 25 a page, a new-fund button, the event form in a modal, rows linking to /admin/{id}. */
export default function AdminEvents() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const { data, isLoading } = useQuery(eventsPageQuery(page, EVENTS_PAGE_SIZE));
  const [opened, { open, close }] = useDisclosure(false);
  const [editing, setEditing] = useState<EventPublic | undefined>();
  const isPhone = useIsNarrow();
  // The modal's code loads on the first New or Edit; it stays mounted from then on.
  const [mounted, setMounted] = useState(false);
  const openForm = (event?: EventPublic) => {
    setEditing(event);
    setMounted(true);
    open();
  };
  const rows = data?.data ?? [];
  const column = (name: string) => t(`admin.columns.${name}`);
  return (
    <>
      <Group justify="flex-end" mb="md">
        <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
          {t('admin.newFund')}
        </Button>
      </Group>
      <ResponsiveList
        rows={rows}
        label={t('admin.events')}
        isLoading={isLoading}
        // A round is a few events a year: the list reserves the rows it usually has, so that the pager, out of view
        // below a page of reserved rows, does not move up into view when three rows arrive (layout shift, issue 30 item 5).
        reserveRows={3}
        rowKey={(event) => event.row_id}
        card={(event) => <EventCard event={event} onEdit={() => openForm(event)} />}
        table={(shown, filling) => (
          <ScrollTable minWidth={720} label={t('admin.events')}>
            {/* Fixed column widths: the header keeps its layout when the rows arrive (no layout shift). */}
            <PlainTable fixed aria-label={t('admin.events')} aria-busy={isLoading || filling}>
              <thead>
                <tr>
                  {(
                    [
                      ['id', 70],
                      ['name', undefined],
                      ['description', undefined],
                      ['start', 130],
                      ['end', 130],
                      ['active', 90],
                    ] as const
                  ).map(([name, width]) => (
                    <th key={name} style={{ width }}>
                      {column(name)}
                    </th>
                  ))}
                  <th style={{ width: 60 }}>
                    <span className="visually-hidden">{column('actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((event) => (
                  <tr key={event.row_id} className={ROW_CLASS} data-testid={`event-row-${event.row_id}`}>
                    <td className={CELL_CLASS}>{event.row_id}</td>
                    <td className={CELL_CLASS}>
                      <Anchor
                        component={Link}
                        to={paths['admin-event'](event.row_id)}
                        aria-label={t('admin.configureNamed', { name: event.name })}
                      >
                        {event.name}
                      </Anchor>
                    </td>
                    <td className={CELL_CLASS} style={{ maxWidth: 320 }}>
                      <Text size="sm" lineClamp={2}>
                        {event.description}
                      </Text>
                    </td>
                    <td className={CELL_CLASS}>{formatDateLong(event.start_time)}</td>
                    <td className={CELL_CLASS}>{formatDateLong(event.end_time)}</td>
                    <td className={CELL_CLASS}>
                      <Badge variant="light" color={event.active ? 'green' : 'gray'}>
                        {event.active ? t('admin.yes') : t('admin.no')}
                      </Badge>
                    </td>
                    <td className={CELL_CLASS}>
                      {/* The browser's own tooltip: a positioned one would load @floating-ui with the tab. */}
                      <ActionIcon
                        variant="subtle"
                        onClick={() => openForm(event)}
                        aria-label={t('admin.editNamed', { name: event.name })}
                        title={t('admin.edit')}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </td>
                  </tr>
                ))}
                {!isLoading && rows.length === 0 && <EmptyTableRow colSpan={7} />}
              </tbody>
            </PlainTable>
          </ScrollTable>
        )}
      />
      <QueryPagination total={data?.page.total ?? 0} size={EVENTS_PAGE_SIZE} />
      {mounted && (
        // While the modal's code loads (the first time only), a loader where the modal will be.
        <Suspense
          fallback={
            <Center pos="fixed" inset={0} style={{ zIndex: 200 }}>
              <Loader role="status" aria-label={t('common.loading')} />
            </Center>
          }
        >
          <EventFormModal
            opened={opened}
            title={editing ? t('admin.editEvent') : t('admin.newEvent')}
            event={editing}
            fullScreen={isPhone}
            onClose={close}
          />
        </Suspense>
      )}
    </>
  );
}
