import { FileInput, Radio, Stack, TextInput } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import type { Category } from '@cr/contract/events';
import { importOptions, type ImportOptions, type ImportOptionsInput, type ImportResult } from '@cr/contract/proposals';
import { useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { fieldError } from '../../../components/form-field';
import { FormSwitch } from '../../../components/form-switch';
import { useImportProposals } from '../api/proposal-runs';
import { readImportFile, type ReadImportFile } from './import-file';
import { ImportResultView } from './import-result';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';

const SOURCES = ['sample', 'file', 'gateway'] as const;
type Source = (typeof SOURCES)[number];

/** What goes to the server: the upload only with the file source, the URL only with the gateway source. */
function toRequest({ file, gateway_url, ...options }: ImportOptions): ImportOptions {
  return {
    ...options,
    ...(options.source === 'file' ? { file } : {}),
    ...(options.source === 'gateway' && gateway_url ? { gateway_url } : {}),
  };
}

/**
 * Import Proposals (spec §2.17, §3 "Import options"): the source (the demo sample, an uploaded JSON file or a Catalyst
 * Gateway), the categories to import (the file's own when one is chosen, else the event's; none = all), whether to
 * accept authors unknown to the registry or not yet persistent, and the dry run.
 */
export function ImportProposalsForm({ eventId, categories }: { eventId: number; categories: Category[] }) {
  const { t } = useTranslation();
  const mutation = useImportProposals(eventId);
  const [upload, setUpload] = useState<{ file: File; read?: ReadImportFile } | null>(null);
  const run = useAdminRunForm({
    schema: importOptions,
    defaultValues: { source: 'file', categories: [], accept_non_existent_users: true, accept_non_persistent_users: true, dry_run: true },
    mutation: { mutateAsync: (options: ImportOptions) => mutation.mutateAsync(toRequest(options)), isPending: mutation.isPending },
    labels: runLabels('adminRuns.import', { resultTitle: 'adminRuns.import.resultTitle' }),
    // The answer says whether the import ran for good (the success toast is for that).
    isDryRun: (result: ImportResult) => result.dry_run,
  });
  const { form } = run;

  const source = form.watch('source') ?? 'file';
  const eventTitles = categories.map((category) => category.title);
  const titlesFor = (nextSource: Source, read: ReadImportFile | undefined) =>
    nextSource === 'file' && read?.ok ? read.categories : eventTitles;
  const options = titlesFor(source, upload?.read);
  /** Keeps only the chosen categories that the new options still offer. */
  const keepOffered = (offered: string[]) => {
    const known = new Set(offered.map((title) => title.toLowerCase()));
    const chosen = form.getValues('categories') ?? [];
    if (chosen.some((title) => !known.has(title.toLowerCase())))
      form.setValue(
        'categories',
        chosen.filter((title) => known.has(title.toLowerCase())),
      );
  };

  async function chooseFile(file: File | null) {
    if (!file) {
      setUpload(null);
      form.setValue('file', undefined, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
      keepOffered(titlesFor(source, undefined));
      return;
    }
    setUpload({ file });
    const read = await file.text().then(readImportFile, (): ReadImportFile => ({ ok: false, error: 'notJson' }));
    setUpload({ file, read });
    form.setValue('file', read.ok ? read.content : undefined, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
    keepOffered(titlesFor(source, read));
  }

  const fileLabel = t('adminRuns.import.file');
  const readError = upload?.read && !upload.read.ok ? upload.read : null;
  const errorOf = (name: 'file' | 'gateway_url', label: string) =>
    fieldError(form as unknown as UseFormReturn<ImportOptionsInput>, name, label);

  return (
    <AdminRunControls run={run} isSubmitEnabledWhileInvalid renderResult={(result: ImportResult) => <ImportResultView result={result} />}>
      <Controller
        control={form.control}
        name="source"
        render={({ field }) => (
          <Radio.Group
            label={t('adminRuns.import.source')}
            value={field.value ?? 'file'}
            onChange={(value) => {
              const next = value as Source;
              field.onChange(next);
              if (next !== 'gateway') form.setValue('gateway_url', undefined, { shouldValidate: true });
              keepOffered(titlesFor(next, upload?.read));
            }}
          >
            <Stack gap="xs" mt="xs">
              {SOURCES.map((option) => (
                <Radio
                  key={option}
                  value={option}
                  label={t(`adminRuns.import.sources.${option}`)}
                  description={t(`adminRuns.import.sourceHints.${option}`)}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
      />
      {source === 'file' && (
        <FileInput
          label={fileLabel}
          description={t('adminRuns.import.fileHint')}
          placeholder={t('adminRuns.import.filePlaceholder')}
          accept="application/json,.json"
          leftSection={<IconFileUpload size={16} aria-hidden />}
          clearable
          clearButtonProps={{ 'aria-label': t('adminRuns.import.clearFile') }}
          withAsterisk
          // Mantine's placeholder grey falls below 4.5:1 on white.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          value={upload?.file ?? null}
          onChange={(file) => void chooseFile(file)}
          error={readError ? t(`adminRuns.import.${readError.error}`, { detail: readError.detail ?? '' }) : errorOf('file', fileLabel)}
        />
      )}
      {source === 'gateway' && (
        <TextInput
          type="url"
          label={t('adminRuns.import.gatewayUrl')}
          description={t('adminRuns.import.gatewayUrlHint')}
          placeholder={t('adminRuns.import.gatewayUrlExample')}
          {...form.register('gateway_url', {
            setValueAs: (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined),
          })}
          error={errorOf('gateway_url', t('adminRuns.import.gatewayUrl'))}
        />
      )}
      <Controller
        control={form.control}
        name="categories"
        render={({ field }) => (
          <AppMultiSelect
            label={t('adminRuns.import.categories')}
            description={t(
              source === 'file' && upload?.read?.ok ? 'adminRuns.import.categoriesFromFile' : 'adminRuns.import.categoriesHint',
            )}
            data={options}
            value={field.value ?? []}
            onChange={field.onChange}
            onBlur={field.onBlur}
            clearable
          />
        )}
      />
      <FormSwitch
        control={form.control}
        name="accept_non_existent_users"
        label={t('adminRuns.import.accept_non_existent_users')}
        description={t('adminRuns.import.acceptNonExistentHint')}
      />
      <FormSwitch
        control={form.control}
        name="accept_non_persistent_users"
        label={t('adminRuns.import.accept_non_persistent_users')}
        description={t('adminRuns.import.acceptNonPersistentHint')}
      />
    </AdminRunControls>
  );
}
