import { WINDOWED } from '@cr/contract/plain';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { GENERAL_SETTINGS, settingKind, type ReviewsConfig, type ReviewsConfigValue } from '@cr/contract/events';
import { messages } from '@cr/contract/rules';
import { useMemo } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDateTime } from '../../../components/form-date-time';
import { FormSwitch } from '../../../components/form-switch';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveEventConfig } from '../api/events';
import { fromLocalInput, localDateTime, toLocalInput } from '../schemas';

type FormValues = Record<string, boolean | string>;

/** Switches first, then each window's start and end, then any other (text) setting. */
function orderOf(name: string): number {
  const kind = settingKind(name);
  return kind === 'switch' ? 0 : kind === 'datetime' ? 1 : 2;
}

function schemaFor(names: string[]) {
  const shape: Record<string, z.ZodType<boolean | string>> = {};
  for (const name of names) {
    const kind = settingKind(name);
    shape[name] = kind === 'switch' ? z.boolean() : kind === 'datetime' ? localDateTime : z.string().max(2000, messages.maxLength);
  }
  return z.object(shape).superRefine((values, ctx) => {
    for (const prefix of WINDOWED) {
      const start = values[`${prefix}_starts_at`];
      const end = values[`${prefix}_ends_at`];
      if (typeof start === 'string' && typeof end === 'string' && start && end && new Date(end) <= new Date(start)) {
        ctx.addIssue({ code: 'custom', message: messages.endAfterStart, path: [`${prefix}_ends_at`] });
      }
    }
  });
}

/**
 * General Configuration (spec §2.17, §3 "Event config"): the flat map of settings, each input typed by its name's
 * suffix — `_enabled` a switch, `_at` a date-time, anything else text. The switches and the three windows are always
 * shown: the server leaves a window that is not set out of the map (issue 17), and an empty window is saved as `null`.
 */
export function GeneralConfigForm({ eventId, config }: { eventId: number; config: ReviewsConfig }) {
  const { t } = useTranslation();
  const save = useSaveEventConfig(eventId);
  const names = useMemo(
    () => [...new Set([...GENERAL_SETTINGS, ...Object.keys(config)])].sort((a, b) => orderOf(a) - orderOf(b)),
    [config],
  );
  const defaults = useMemo(
    () =>
      Object.fromEntries(
        names.map((name) => {
          const value = config[name];
          const kind = settingKind(name);
          return [
            name,
            kind === 'switch'
              ? value === true
              : kind === 'datetime'
                ? toLocalInput(typeof value === 'string' ? value : null)
                : String(value ?? ''),
          ];
        }),
      ) as FormValues,
    [names, config],
  );
  const form = useForm<FormValues>({
    resolver: zodResolver(schemaFor(names)) as unknown as Resolver<FormValues>,
    mode: 'onChange',
    defaultValues: defaults,
  });
  const label = (name: string) => t(`settings.${name}`, { defaultValue: name });

  const onSubmit = form.handleSubmit(async (values) => {
    const record: ReviewsConfigValue = {};
    for (const name of names) {
      const value = values[name];
      const kind = settingKind(name);
      record[name] = kind === 'switch' ? value === true : kind === 'datetime' ? fromLocalInput(String(value ?? '')) : String(value ?? '');
    }
    try {
      await save.mutateAsync(record);
      form.reset(values);
      notifySuccess('notify.configSaved');
    } catch (error) {
      notifyError(error, 'notify.configSaveFailed');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm" maw={560}>
        <Text size="sm" c="dimmed">
          {t('admin.generalHint')}
        </Text>
        {names.map((name) => {
          const kind = settingKind(name);
          if (kind === 'switch')
            return <FormSwitch key={name} control={form.control} name={name} label={label(name)} data-setting={name} />;
          const deps = names.filter((other) => other.endsWith('_ends_at'));
          if (kind === 'datetime')
            return (
              <FormDateTime
                key={name}
                control={form.control}
                name={name}
                rules={{ deps }}
                label={label(name)}
                error={fieldError(form, name, label(name))}
                data-setting={name}
              />
            );
          return (
            <TextInput
              key={name}
              label={label(name)}
              {...form.register(name, { deps })}
              error={fieldError(form, name, label(name))}
              data-setting={name}
            />
          );
        })}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isValid}>
            {t('admin.saveGeneral')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
