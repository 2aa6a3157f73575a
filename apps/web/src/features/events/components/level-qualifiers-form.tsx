import { Button, Fieldset, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import type { LevelQualifier, LevelQualifiers } from '@cr/contract/events';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveLevelQualifiers } from '../api/events';
import { lazyZodResolver } from '../../../lib/lazy-resolver';

const FIELDS: (keyof LevelQualifier)[] = [
  'min_valid_reviews',
  'max_valid_reviews',
  'min_perc_valid_reviews',
  'max_perc_valid_reviews',
  'min_active_funds',
  'max_active_funds',
];
const isRatio = (field: keyof LevelQualifier) => field.includes('perc');

/** Review Levels (spec §2.17, §5): the LV1 and LV2 qualifiers; counts at least 0, percentages from 0 to 1. */
export function LevelQualifiersForm({ eventId, value }: { eventId: number; value: LevelQualifiers }) {
  const { t } = useTranslation();
  const save = useSaveLevelQualifiers(eventId);
  const form = useForm<LevelQualifiers>({
    resolver: lazyZodResolver(() => import('@cr/contract/events').then((module) => module.levelQualifiers)),
    mode: 'onChange',
    defaultValues: value,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      form.reset(values);
      notifySuccess('notify.configSaved');
    } catch (error) {
      notifyError(error, 'notify.configSaveFailed');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('admin.levelsHint')}
        </Text>
        {(['lv1', 'lv2'] as const).map((level) => (
          <Fieldset key={level} legend={t(`admin.${level}`)}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {FIELDS.map((field) => {
                const name = `${level}.${field}` as const;
                const label = t(`fields.${field}`);
                return (
                  <Controller
                    key={name}
                    control={form.control}
                    name={name}
                    render={({ field: control }) => (
                      <NumberInput
                        label={label}
                        withAsterisk
                        min={0}
                        max={isRatio(field) ? 1 : undefined}
                        step={isRatio(field) ? 0.05 : 1}
                        decimalScale={isRatio(field) ? 2 : 0}
                        value={control.value}
                        onChange={(next) => control.onChange(typeof next === 'number' ? next : next === '' ? undefined : Number(next))}
                        onBlur={control.onBlur}
                        error={fieldError(form, name, label)}
                      />
                    )}
                  />
                );
              })}
            </SimpleGrid>
          </Fieldset>
        ))}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isValid}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
