import { useState } from 'react';

/**
 * The flow of an admin run (spec §2.17): a dry run executes at once and its result shows inline; a real run first
 * waits for confirmation in the warning modal, and its result then shows in the statistics modal. `execute` shows
 * its own toasts and answers undefined when the run failed.
 */
export function useRunFlow<TParams extends { dry_run: boolean }, TResult>(execute: (params: TParams) => Promise<TResult | undefined>) {
  const [awaitingConfirmation, setAwaitingConfirmation] = useState<TParams | null>(null);
  const [dryRunResult, setDryRunResult] = useState<TResult | null>(null);
  const [realRunResult, setRealRunResult] = useState<TResult | null>(null);

  async function submit(params: TParams) {
    if (!params.dry_run) {
      setAwaitingConfirmation(params);
      return;
    }
    setDryRunResult(null);
    const result = await execute(params);
    if (result !== undefined) setDryRunResult(result);
  }

  async function confirm() {
    if (!awaitingConfirmation) return;
    const result = await execute(awaitingConfirmation);
    setAwaitingConfirmation(null);
    if (result !== undefined) {
      setDryRunResult(null);
      setRealRunResult(result);
    }
  }

  return {
    submit,
    confirm,
    /** Whether the warning modal is open. */
    isConfirming: awaitingConfirmation !== null,
    cancel: () => setAwaitingConfirmation(null),
    dryRunResult,
    realRunResult,
    closeResult: () => setRealRunResult(null),
  };
}
