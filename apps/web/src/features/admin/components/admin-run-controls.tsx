import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm, type Control, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { DryRunResult, DryRunSwitch, RunConfirmModal, RunProgress, RunResultModal } from './run-controls';
import { useRunFlow } from './use-run-flow';

/**
 * The i18n keys of one run's texts: the form's name, its intro, the notice once it ran for good, its button, the
 * dry-run title, the two modals and the toasts after a real run and after a failure.
 */
export interface RunLabels {
  formLabel: string;
  intro: string;
  generatedTitle: string;
  generated: string;
  submit: string;
  dryRunTitle: string;
  confirmTitle: string;
  confirm: string;
  confirmText: string;
  resultTitle: string;
  success: string;
  failed: string;
}

/** The run's i18n keys under one prefix (`adminRuns.outcomes` → `adminRuns.outcomes.submit`, …). */
export function runLabels(prefix: string, overrides: Partial<RunLabels> = {}): RunLabels {
  return {
    formLabel: `${prefix}.formLabel`,
    intro: `${prefix}.intro`,
    generatedTitle: `${prefix}.generatedTitle`,
    generated: `${prefix}.generated`,
    submit: `${prefix}.submit`,
    dryRunTitle: `${prefix}.dryRunTitle`,
    confirmTitle: `${prefix}.confirmTitle`,
    confirm: `${prefix}.confirm`,
    confirmText: `${prefix}.confirmText`,
    resultTitle: `${prefix}.statsTitle`,
    success: `${prefix}.success`,
    failed: `${prefix}.failed`,
    ...overrides,
  };
}

/**
 * An admin run's mutation wrapped in the run flow (spec §2.17) with its toasts: green after a real run, red with the
 * server's message or the run's fixed text (spec §8) when it fails.
 */
export function useAdminRun<TParams extends { dry_run: boolean }, TResult>(
  mutate: (params: TParams) => Promise<TResult>,
  toasts: { success: string; failed: string },
  isDryRun: (result: TResult, params: TParams) => boolean = (_result, params) => params.dry_run,
) {
  return useRunFlow(async (params: TParams): Promise<TResult | undefined> => {
    try {
      const result = await mutate(params);
      if (!isDryRun(result, params)) notifySuccess(toasts.success);
      return result;
    } catch (error) {
      notifyError(error, toasts.failed);
      return undefined;
    }
  });
}

/**
 * An admin run's form (validated by the contract's schema as the admin types, spec §2.17) and its flow, with the run's
 * texts: what `AdminRunControls` draws. The mutation hook stays the form's own; this only runs it.
 */
export function useAdminRunForm<TInput extends FieldValues, TParams extends { dry_run: boolean }, TResult>({
  schema,
  defaultValues,
  mutation,
  labels,
  isDryRun,
}: {
  schema: z.ZodType<TParams, TInput>;
  defaultValues: DefaultValues<TInput>;
  mutation: { mutateAsync: (params: TParams) => Promise<TResult>; isPending: boolean };
  labels: RunLabels;
  /** Whether a result came from a dry run (no success toast); by default, whether it was asked for one. */
  isDryRun?: (result: TResult, params: TParams) => boolean;
}) {
  const form = useForm<TInput, unknown, TParams>({ resolver: zodResolver(schema), mode: 'onChange', defaultValues });
  const flow = useAdminRun((params: TParams) => mutation.mutateAsync(params), labels, isDryRun);
  return { form, flow, isPending: mutation.isPending, labels };
}
export type AdminRun<TInput extends FieldValues, TParams extends { dry_run: boolean }, TResult> = ReturnType<
  typeof useAdminRunForm<TInput, TParams, TResult>
>;

/**
 * The controls every admin run shares (spec §2.17): the form around the run's own fields, the dry-run switch (on by
 * default, enabled after the first submit attempt), the submit button with the dry run's progress, the dry run's
 * result below the form, the warning modal before a real run and the statistics modal after it.
 *
 * Above the fields: the run's intro and, while `disabled` (a run that can't run again, because it ran), the notice
 * that it ran (`generatedTestId` names it for tests), then `before`. `disabled` locks the whole form; the button is
 * also disabled while a run is under way and, unless `isSubmitEnabledWhileInvalid`, while the form is invalid.
 */
export function AdminRunControls<TInput extends FieldValues, TParams extends { dry_run: boolean }, TResult>({
  run,
  disabled = false,
  isSubmitEnabledWhileInvalid = false,
  generatedTestId,
  renderResult,
  before,
  confirmNotice,
  children,
}: {
  run: AdminRun<TInput, TParams, TResult>;
  disabled?: boolean;
  /**
   * For a form that is invalid before the admin did anything wrong (Import: no file chosen yet): a disabled button
   * would not say why, a submit shows what is missing.
   */
  isSubmitEnabledWhileInvalid?: boolean;
  generatedTestId?: string;
  /** The result of a run, shown below the form after a dry run and in the statistics modal after a real run. */
  renderResult: (result: TResult) => ReactNode;
  /** Further notices above the fields, below the intro. */
  before?: ReactNode;
  /** A notice in the warning modal before a real run, under its text. */
  confirmNotice?: ReactNode;
  /** The run's own fields. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { form, flow, isPending, labels } = run;
  const onSubmit = form.handleSubmit((values) => flow.submit(values));
  const isDryRunning = isPending && !flow.isConfirming;
  return (
    <Stack gap="lg">
      <form onSubmit={onSubmit} noValidate aria-label={t(labels.formLabel)}>
        <Stack gap="md" maw={560}>
          <Text size="sm" c="dimmed">
            {t(labels.intro)}
          </Text>
          {disabled && (
            <Alert color="brand" title={t(labels.generatedTitle)} data-testid={generatedTestId}>
              {t(labels.generated)}
            </Alert>
          )}
          {before}
          {children}
          <DryRunSwitch
            // The switch reads and writes the field only; the resolver's output type doesn't matter to it.
            control={form.control as unknown as Control<TInput>}
            name={'dry_run' as Path<TInput>}
            submitCount={form.formState.submitCount}
            disabled={disabled || isPending}
          />
          <Group>
            <Button
              type="submit"
              loading={isDryRunning}
              disabled={disabled || isPending || (!isSubmitEnabledWhileInvalid && !form.formState.isValid)}
            >
              {t(labels.submit)}
            </Button>
            {isDryRunning && <RunProgress label={t('adminRuns.runningDry')} />}
          </Group>
        </Stack>
      </form>
      {flow.dryRunResult !== null && <DryRunResult title={t(labels.dryRunTitle)}>{renderResult(flow.dryRunResult)}</DryRunResult>}
      <RunConfirmModal
        opened={flow.isConfirming}
        title={t(labels.confirmTitle)}
        confirmLabel={t(labels.confirm)}
        isRunning={isPending}
        onCancel={flow.cancel}
        onConfirm={() => void flow.confirm()}
      >
        {t(labels.confirmText)}
        {confirmNotice}
      </RunConfirmModal>
      <RunResultModal opened={flow.realRunResult !== null} title={t(labels.resultTitle)} onClose={flow.closeResult}>
        {flow.realRunResult !== null && renderResult(flow.realRunResult)}
      </RunResultModal>
    </Stack>
  );
}
