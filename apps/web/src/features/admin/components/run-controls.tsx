import { Alert, Button, Group, Loader, Modal, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldError } from '../../../components/form-field';
import { FormSwitch } from '../../../components/form-switch';
import { useIsNarrow } from '../../../components/responsive-list';

/** The dry-run switch (spec §2.17): on by default, enabled only after the first submit attempt. */
export function DryRunSwitch<T extends FieldValues>({
  control,
  name,
  submitCount,
  disabled,
}: {
  control: Control<T>;
  name: Path<T>;
  submitCount: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const locked = submitCount === 0;
  return (
    <FormSwitch
      control={control}
      name={name}
      label={t('adminRuns.dryRun')}
      description={locked ? t('adminRuns.dryRunLocked') : t('adminRuns.dryRunHint')}
      disabled={disabled || locked}
    />
  );
}

/** A run under way: a spinner and a line of text that screen readers announce. */
export function RunProgress({ label }: { label: string }) {
  return (
    <Group gap="xs" role="status" aria-live="polite">
      <Loader size="xs" />
      <Text size="sm">{label}</Text>
    </Group>
  );
}

/**
 * The warning modal before a real run (spec §2.17) with Cancel and the run's own button. While the run is under
 * way it stays open and shows its progress; it can't be dismissed then.
 */
export function RunConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  isRunning,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  isRunning: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={() => !isRunning && onCancel()}
      title={title}
      withCloseButton={!isRunning}
      closeOnClickOutside={!isRunning}
      closeOnEscape={!isRunning}
      centered
    >
      <Stack>
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} title={t('adminRuns.notDryRun')}>
          {children}
        </Alert>
        {isRunning && <RunProgress label={t('adminRuns.running')} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={isRunning}>
            {t('adminRuns.cancel')}
          </Button>
          <Button color="orange" onClick={onConfirm} loading={isRunning}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The statistics modal after a real run (spec §2.17); the whole screen on a phone (issue 19 item 4). */
export function RunResultModal({
  opened,
  title,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const isPhone = useIsNarrow();
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" centered fullScreen={isPhone}>
      <Stack>
        {children}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('adminRuns.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A dry run's result, shown below its form; its title says it was a dry run ('Dry run: …'). */
export function DryRunResult({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} size="h4" id={headingId}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adminRuns.dryRunNothingSaved')}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * A run's number parameter (spec §5, §9): its bounds and step, a whole number unless `decimalScale` is given. Its label
 * is the i18n key `<prefix>.<label>` (the name by default) and its hint `<prefix>.<label>Hint`.
 */
export interface RunNumberSpec<T extends FieldValues> {
  name: Path<T>;
  label?: string;
  min: number;
  max?: number;
  step?: number;
  decimalScale?: number;
  /** Shown as required (an asterisk); true by default. */
  isRequired?: boolean;
}

/** A ratio of a run (spec §5, §9): required, from 0 to 1 in steps of 0.1. */
export const ratioSpec = <T extends FieldValues>(name: Path<T>, label?: string): RunNumberSpec<T> => ({
  name,
  label,
  min: 0,
  max: 1,
  step: 0.1,
  decimalScale: 2,
});

/** A run's number parameters, each with its label, its hint and, once edited, its error (`fieldError`). */
export function RunNumberFields<T extends FieldValues, TParams>({
  form,
  prefix,
  fields,
  disabled,
}: {
  form: UseFormReturn<T, unknown, TParams>;
  prefix: string;
  fields: readonly RunNumberSpec<T>[];
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  // fieldError and the inputs read and write the fields only; the resolver's output type doesn't matter to them.
  const fieldForm = form as unknown as UseFormReturn<T>;
  return fields.map(({ name, label: labelKey = name, min, max, step = 1, decimalScale, isRequired = true }) => {
    const label = t(`${prefix}.${labelKey}`);
    return (
      <Controller
        key={name}
        control={fieldForm.control}
        name={name}
        render={({ field }) => (
          <NumberInput
            label={label}
            description={t(`${prefix}.${labelKey}Hint`)}
            withAsterisk={isRequired}
            min={min}
            max={max}
            step={step}
            allowDecimal={decimalScale !== undefined}
            decimalScale={decimalScale}
            value={field.value}
            onChange={(next) => field.onChange(typeof next === 'number' ? next : next === '' ? undefined : Number(next))}
            onBlur={field.onBlur}
            error={fieldError(fieldForm, name, label)}
            disabled={disabled}
          />
        )}
      />
    );
  });
}
