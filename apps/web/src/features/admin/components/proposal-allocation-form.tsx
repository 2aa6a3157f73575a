import type { Category } from '@cr/contract/events';
import { ALLOCATION_DEFAULTS, allocationParams, type AllocationParamsInput, type AllocationStats } from '@cr/contract/proposals';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AppMultiSelect } from '../../../components/app-multi-select';
import { useGenerateProposalAllocation } from '../api/proposal-runs';
import { AllocationStatsView } from './allocation-stats';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { RunNumberFields, type RunNumberSpec } from './run-controls';

const NUMBER_FIELDS: RunNumberSpec<AllocationParamsInput>[] = [
  { name: 'allocation_seed', min: 1 },
  { name: 'nr_of_proposals_lv0', min: 0 },
  { name: 'nr_of_proposals_lv1', min: 1 },
];

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
  const run = useAdminRunForm({
    schema: allocationParams,
    defaultValues: { event_id: eventId, ...ALLOCATION_DEFAULTS, categories: [], dry_run: true },
    mutation: useGenerateProposalAllocation(eventId),
    labels: runLabels('adminRuns.allocation'),
  });

  return (
    <AdminRunControls
      run={run}
      disabled={isGenerated}
      renderResult={(stats: AllocationStats) => <AllocationStatsView stats={stats} />}
      generatedTestId="allocation-generated"
    >
      <RunNumberFields form={run.form} prefix="adminRuns.allocation" fields={NUMBER_FIELDS} disabled={isGenerated} />
      <Controller
        control={run.form.control}
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
