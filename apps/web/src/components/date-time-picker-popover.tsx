// The date pickers' styles load with them, not with every page (issue 16: render-blocking CSS).
import '@mantine/dates/styles.css';
import { ActionIcon, Button, Group, Popover, Stack } from '@mantine/core';
import { DatePicker, TimePicker } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLocalDateTime } from '../lib/date-time-text';
import classes from './date-time-picker-popover.module.css';

/**
 * The calendar and clock behind a date-time field's button (issue 26 item 13): picking a day keeps the time (00:00
 * when none), setting the time keeps the day (today when none). Every control has a name, the month arrows included.
 */
export function DateTimePickerPopover({
  value,
  onChange,
  fieldLabel,
  disabled,
}: {
  /** The form value: a local `YYYY-MM-DDTHH:mm`, '' or text typed that is not a date-time (then nothing is picked). */
  value: string;
  onChange: (value: string) => void;
  fieldLabel: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const picked = isLocalDateTime(value) ? value : '';
  const day = picked.slice(0, 10);
  // The clock's own value: it reports a time only once hours and minutes are both there.
  const [time, setTime] = useState(picked.slice(11, 16));
  const toggle = () => {
    if (!opened) setTime(picked.slice(11, 16));
    setOpened(!opened);
  };
  const pickDay = (date: string | null) => {
    if (date) onChange(`${date}T${time || '00:00'}`);
  };
  const pickTime = (next: string) => {
    setTime(next.slice(0, 5));
    if (next) onChange(`${day || dayjs().format('YYYY-MM-DD')}T${next.slice(0, 5)}`);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" trapFocus returnFocus shadow="md" disabled={disabled}>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray.8"
          onClick={toggle}
          disabled={disabled}
          aria-label={t('dateTime.pick', { field: fieldLabel })}
        >
          <IconCalendar size={18} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      {/* A dialog named by its button (Popover's roles). */}
      <Popover.Dropdown>
        <Stack gap="xs">
          <DatePicker
            value={day || null}
            defaultDate={day || undefined}
            onChange={pickDay}
            __stopPropagation
            classNames={{ day: classes.day }}
            ariaLabels={{
              previousMonth: t('dateTime.previousMonth'),
              nextMonth: t('dateTime.nextMonth'),
              previousYear: t('dateTime.previousYear'),
              nextYear: t('dateTime.nextYear'),
              previousDecade: t('dateTime.previousDecade'),
              nextDecade: t('dateTime.nextDecade'),
            }}
          />
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <TimePicker
              label={t('dateTime.time')}
              value={time}
              onChange={pickTime}
              format="24h"
              hoursInputLabel={t('dateTime.hours')}
              minutesInputLabel={t('dateTime.minutes')}
              data-mantine-stop-propagation
              style={{ flex: 1 }}
            />
            <Button variant="default" onClick={() => setOpened(false)} data-mantine-stop-propagation>
              {t('dateTime.done')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
