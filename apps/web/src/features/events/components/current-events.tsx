import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { EventPublic, ReviewsConfig } from '@cr/contract/events';
import { deriveStage, switchActive, WINDOWED } from '@cr/contract/plain';
import { useTranslation } from 'react-i18next';
import { PlainTable } from '../../../components/plain';
import { formatDateLong, formatDateShort } from '../../../lib/format';
import { useCurrentEvents } from '../api/events';
import { STAGE_COLORS } from './stage-badge';

function Windows({ config }: { config: ReviewsConfig | undefined }) {
  const { t } = useTranslation();
  const rows = WINDOWED.map((prefix) => {
    const open = switchActive(config, `${prefix}_enabled`);
    const starts = config?.[`${prefix}_starts_at`];
    const ends = config?.[`${prefix}_ends_at`];
    return { prefix, open, starts: typeof starts === 'string' ? starts : null, ends: typeof ends === 'string' ? ends : null };
  });
  return (
    <PlainTable compact>
      <tbody>
        {rows.map((row) => (
          <tr key={row.prefix}>
            <th style={{ width: '40%' }}>{t(`home.windows.${row.prefix}`)}</th>
            <td>
              <Group gap="xs">
                <Badge size="sm" variant="light" color={row.open ? 'green' : 'gray'}>
                  {row.open ? t('home.open') : t('home.closed')}
                </Badge>
                {(row.starts || row.ends) && (
                  <Text size="sm" c="dimmed">
                    {formatDateLong(row.starts) || '…'} – {formatDateLong(row.ends) || '…'}
                  </Text>
                )}
              </Group>
            </td>
          </tr>
        ))}
      </tbody>
    </PlainTable>
  );
}

function EventCard({ event, config }: { event: EventPublic; config: ReviewsConfig | undefined }) {
  const { t } = useTranslation();
  const stage = deriveStage([config]);
  return (
    <Card withBorder padding="lg" component="article" aria-label={event.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4">
            {event.name}
          </Title>
          <Badge variant="light" color={STAGE_COLORS[stage]}>
            {t(`stage.${stage}`)}
          </Badge>
        </Group>
        <Text size="sm">{event.description}</Text>
        {(event.start_time || event.end_time) && (
          <Text size="sm" c="dimmed">
            {formatDateShort(event.start_time) || '…'} – {formatDateShort(event.end_time) || '…'}
          </Text>
        )}
        <Windows config={config} />
      </Stack>
    </Card>
  );
}

/** The current funding rounds with their stage and the dates of their configured windows. */
export function CurrentEvents() {
  const { t } = useTranslation();
  const { events, isLoading } = useCurrentEvents();
  return (
    <Stack gap="sm" component="section" aria-label={t('home.currentTitle')}>
      <Title order={2} size="h3">
        {t('home.currentTitle')}
      </Title>
      {!isLoading && events.length === 0 && <Text c="dimmed">{t('home.noCurrent')}</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {events.map(({ event, config }) => (
          <EventCard key={event.row_id} event={event} config={config} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
