import { zodResolver } from '@hookform/resolvers/zod';
import type { Category } from '@cr/contract/events';
import {
  ALLOCATION_DEFAULTS,
  allocationParams,
  type AllocationParams,
  type AllocationParamsInput,
  type AllocationStats,
} from '@cr/contract/proposals';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { fieldError } from '../../../components/form-field';
import { useGenerateProposalAllocation } from '../api/proposal-runs';
import { AllocationStatsView } from './allocation-stats';
import { AdminRunControls, runLabels, useAdminRun } from './admin-run-controls';
import { RunNumberField } from './run-controls';

const NUMBER_FIELDS = [
  { name: 'allocation_seed', min: 1 },
  { name: 'nr_of_proposals_lv0', min: 0 },
  { name: 'nr_of_proposals_lv1', min: 1 },
] as const;

/**
 * Proposal Allocation (spec §2.17, §5 "Proposal allocation"): seed and the LV0 and LV1 quotas with their defaults,
 * the categories in scope (none = all) and the dry run. The form is disabled once the event has an allocation.
 */
export function ProposalAllocationForm({
  eventId,
  categories,
  isGenerated,
}: {
  eventId: number;
  categories: Category[];
  isGenerated: boolean;
}) {
  const { t } = useTranslation();
  const generate = useGenerateProposalAllocation(eventId);
  const form = useForm<AllocationParamsInput, unknown, AllocationParams>({
    resolver: zodResolver(allocationParams),
    mode: 'onChange',
    defaultValues: { event_id: eventId, ...ALLOCATION_DEFAULTS, categories: [], dry_run: true },
  });
  const flow = useAdminRun((params: AllocationParams) => generate.mutateAsync(params), {
    success: 'adminRuns.allocation.success',
    failed: 'adminRuns.allocation.failed',
  });
  // fieldError reads the form's state only; the transformed-values type parameter doesn't matter to it.
  const errorOf = (name: (typeof NUMBER_FIELDS)[number]['name'], label: string) =>
    fieldError(form as unknown as UseFormReturn<AllocationParamsInput>, name, label);

  return (
    <AdminRunControls
      form={form}
      flow={flow}
      isPending={generate.isPending}
      disabled={isGenerated}
      labels={runLabels('adminRuns.allocation')}
      renderResult={(stats: AllocationStats) => <AllocationStatsView stats={stats} />}
      generatedTestId="allocation-generated"
    >
      {NUMBER_FIELDS.map(({ name, min }) => {
        const label = t(`adminRuns.allocation.${name}`);
        return (
          <RunNumberField
            key={name}
            control={form.control}
            name={name}
            label={label}
            description={t(`adminRuns.allocation.${name}Hint`)}
            min={min}
            error={errorOf(name, label)}
            disabled={isGenerated}
          />
        );
      })}
      <Controller
        control={form.control}
        name="categories"
        render={({ field }) => (
          <AppMultiSelect
            label={t('adminRuns.allocation.categories')}
            description={t('adminRuns.allocation.categoriesHint')}
            data={categories.map((category) => ({ value: String(category.id), label: category.title }))}
            value={(field.value ?? []).map(String)}
            onChange={(values) => field.onChange(values.map(Number))}
            onBlur={field.onBlur}
            clearable
            disabled={isGenerated}
          />
        )}
      />
    </AdminRunControls>
  );
}
