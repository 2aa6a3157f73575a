import type { Db, DbOrTx } from '../../db/client';
import { lockNotAvailable } from '../../db/errors';
import { conflict } from '../../errors';
import { recordAudit } from '../system/audit.service';
import {
  ensureRunFlags,
  eventIdsWithRunFlag,
  lockRunExclusive,
  lockRunFlagsNoWait,
  lockRunShared,
  readRunFlags,
  setRunFlags,
} from './runs.repository';
import { timedRun } from '../../lib/telemetry';

export { eventIdsWithRunFlag, readRunFlags };

/** In the caller's transaction: waits for an admin run of the event in progress, and holds runs off until it ends. */
export const shareRunLock = lockRunShared;

export const runMessages = {
  runInProgress: 'Another run is in progress for this event. Try again when it has finished.',
  alreadyGenerated: 'This has already been generated for this event and cannot be run again.',
};

/**
 * Locks the event's run flags without waiting: while one run holds them, a second gets 409 at once (DOMAIN.md
 * "Admin operations": concurrent real runs, exactly one wins). Answers the flags; `mark` sets one in the same
 * transaction.
 */
async function lockRunFlags(tx: DbOrTx, eventId: number) {
  let flags;
  try {
    flags = await lockRunFlagsNoWait(tx, eventId);
  } catch (error) {
    if (lockNotAvailable(error)) throw conflict(runMessages.runInProgress);
    throw error;
  }
  const { id, value } = flags;
  return { value, mark: (flag: string) => setRunFlags(tx, id, { ...value, [flag]: true }) };
}

/** What every admin run is given: its event, and whether it only answers statistics. */
export interface RunParams {
  event_id: number;
  dry_run?: boolean | undefined;
}

/**
 * One admin run (proposal allocation; later moderation allocation, review outcomes, proposal scores): it supplies
 * only load → compute → write and its statistics; `createRunsService().execute` does the rest.
 */
export interface AdminRun<Params extends RunParams, Input, Result, Stats> {
  /** The audit entry's action, e.g. `proposals.allocate`. */
  action: string;
  /** The event's run flag a real run sets, e.g. `proposal_allocation_generated`. */
  flag: string;
  /**
   * true: irreversible, a real run once the flag is set is refused with 409 (moderation allocation, outcomes,
   * scores). false: a real run replaces the previous results (proposal allocation, DOMAIN.md decision 4).
   */
  once: boolean;
  /** Reads the inputs; inside the run's transaction for a real run (one connection: await queries in turn). */
  load(tx: DbOrTx, params: Params): Promise<Input>;
  /** The pure part: the result to write and the statistics to answer. */
  compute(input: Input, params: Params): { result: Result; stats: Stats };
  /** Writes (replaces) the result; only for a real run, inside its transaction. */
  write(tx: DbOrTx, result: Result, params: Params): Promise<void>;
  /** What the audit entry keeps of the statistics (default: all of them). */
  auditedStats?(stats: Stats): unknown;
  /** Queues the run's notifications (issue 27), in its transaction after the write: they go out only if it commits. */
  notify?(tx: DbOrTx, params: Params): Promise<unknown>;
  /** Links what the run wrote to its audit entry (issue 28: the top-up's rows name their run), in its transaction. */
  audited?(tx: DbOrTx, auditId: number, params: Params): Promise<unknown>;
}

/**
 * Runs admin runs (DOMAIN.md "Admin operations, all of them"). A dry run loads and computes, and writes nothing. A
 * real run, in one transaction: locks the event's run flags without waiting (another run in progress → 409),
 * refuses a repeated irreversible run (409), writes, sets the run's flag and records the audit entry (who,
 * parameters, statistics), so results, flag and audit entry exist together or not at all.
 */
export function createRunsService(deps: {
  db: Db;
  events: { get(eventId: number): Promise<unknown> };
  /** After a real run's transaction committed: what caches figures of the event forgets them (the dashboard). */
  onWritten?: (eventId: number) => void;
}) {
  const { db, events } = deps;
  return {
    async execute<Params extends RunParams, Input, Result, Stats>(
      actorUserId: number,
      run: AdminRun<Params, Input, Result, Stats>,
      params: Params,
    ): Promise<Stats> {
      await events.get(params.event_id);
      if (params.dry_run) return timedRun(run.action, true, async () => run.compute(await run.load(db, params), params).stats);
      await ensureRunFlags(db, params.event_id);
      const stats = await timedRun(run.action, false, () =>
        db.transaction(async (tx) => {
          const flags = await lockRunFlags(tx, params.event_id);
          await lockRunExclusive(tx, params.event_id);
          if (run.once && flags.value[run.flag]) throw conflict(runMessages.alreadyGenerated);
          const { result, stats } = run.compute(await run.load(tx, params), params);
          await run.write(tx, result, params);
          await run.notify?.(tx, params);
          await flags.mark(run.flag);
          const auditId = await recordAudit(tx, {
            actorUserId,
            action: run.action,
            entity: 'event',
            entityId: String(params.event_id),
            eventId: params.event_id,
            before: flags.value,
            after: { params, stats: run.auditedStats ? run.auditedStats(stats) : stats },
          });
          await run.audited?.(tx, auditId, params);
          return stats;
        }),
      );
      deps.onWritten?.(params.event_id);
      return stats;
    },
  };
}
export type RunsService = ReturnType<typeof createRunsService>;
