import { zodResolver } from '@hookform/resolvers/zod';
import {
  MODERATION_ALLOCATION_DEFAULTS,
  moderationAllocationParams,
  type ModerationAllocationParams,
  type ModerationAllocationStats,
} from '@cr/contract/moderations';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { fieldError } from '../../../components/form-field';
import { useGenerateModerationAllocation } from '../api/moderation-runs';
import { ModerationAllocationStatsView } from './allocation-stats';
import { AdminRunControls, runLabels, useAdminRun } from './admin-run-controls';
import { RunNumberField } from './run-controls';

type ParamsInput = z.input<typeof moderationAllocationParams>;

/** F-047..F-049: the three numbers of spec §5 "Moderation allocation" with their minimums. */
const NUMBER_FIELDS = [
  { name: 'moderation_seed', min: 1 },
  { name: 'nr_of_moderations_per_review', min: 0 },
  { name: 'min_spot_check_per_reviewer', min: 0 },
] as const;

/**
 * Moderation Allocation (spec §2.17, §5, F-047..F-058): the seed, the moderations per review and the minimum spot
 * checks per reviewer with their defaults, and the dry run. The form is disabled once the event has its moderation
 * allocation (it cannot be undone), while a run is under way, and while it is invalid.
 */
export function ModerationAllocationForm({ eventId, isGenerated }: { eventId: number; isGenerated: boolean }) {
  const { t } = useTranslation();
  const generate = useGenerateModerationAllocation(eventId);
  const form = useForm<ParamsInput, unknown, ModerationAllocationParams>({
    resolver: zodResolver(moderationAllocationParams),
    mode: 'onChange',
    defaultValues: { event_id: eventId, ...MODERATION_ALLOCATION_DEFAULTS, dry_run: true },
  });
  const flow = useAdminRun((params: ModerationAllocationParams) => generate.mutateAsync(params), {
    success: 'adminRuns.moderation.success',
    failed: 'adminRuns.moderation.failed',
  });
  const errorOf = (name: (typeof NUMBER_FIELDS)[number]['name'], label: string) =>
    fieldError(form as unknown as UseFormReturn<ParamsInput>, name, label);
  const locked = isGenerated || generate.isPending;

  return (
    <AdminRunControls
      form={form}
      flow={flow}
      isPending={generate.isPending}
      disabled={isGenerated}
      labels={runLabels('adminRuns.moderation')}
      renderResult={(stats: ModerationAllocationStats) => <ModerationAllocationStatsView stats={stats} />}
      generatedTestId="moderation-allocation-generated"
    >
      {NUMBER_FIELDS.map(({ name, min }) => {
        const label = t(`adminRuns.moderation.${name}`);
        return (
          <RunNumberField
            key={name}
            control={form.control}
            name={name}
            label={label}
            description={t(`adminRuns.moderation.${name}Hint`)}
            min={min}
            error={errorOf(name, label)}
            disabled={locked}
          />
        );
      })}
    </AdminRunControls>
  );
}
