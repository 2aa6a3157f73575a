import { MODERATION_ALLOCATION_DEFAULTS, moderationAllocationParams, type ModerationAllocationStats } from '@cr/contract/moderations';
import type { z } from 'zod';
import { useGenerateModerationAllocation } from '../api/moderation-runs';
import { ModerationAllocationStatsView } from './allocation-stats';
import { AdminRunControls, runLabels, useAdminRunForm } from './admin-run-controls';
import { RunNumberFields, type RunNumberSpec } from './run-controls';

/** F-047..F-049: the three numbers of spec §5 "Moderation allocation" with their minimums. */
const NUMBER_FIELDS: RunNumberSpec<z.input<typeof moderationAllocationParams>>[] = [
  { name: 'moderation_seed', min: 1 },
  { name: 'nr_of_moderations_per_review', min: 0 },
  { name: 'min_spot_check_per_reviewer', min: 0 },
];

/**
 * Moderation Allocation (spec §2.17, §5, F-047..F-058): the seed, the moderations per review and the minimum spot
 * checks per reviewer with their defaults, and the dry run. The form is disabled once the event has its moderation
 * allocation (it cannot be undone), while a run is under way, and while it is invalid.
 */
export function ModerationAllocationForm({ eventId, isGenerated }: { eventId: number; isGenerated: boolean }) {
  const run = useAdminRunForm({
    schema: moderationAllocationParams,
    defaultValues: { event_id: eventId, ...MODERATION_ALLOCATION_DEFAULTS, dry_run: true },
    mutation: useGenerateModerationAllocation(eventId),
    labels: runLabels('adminRuns.moderation'),
  });

  return (
    <AdminRunControls
      run={run}
      disabled={isGenerated}
      renderResult={(stats: ModerationAllocationStats) => <ModerationAllocationStatsView stats={stats} />}
      generatedTestId="moderation-allocation-generated"
    >
      <RunNumberFields form={run.form} prefix="adminRuns.moderation" fields={NUMBER_FIELDS} disabled={isGenerated || run.isPending} />
    </AdminRunControls>
  );
}
