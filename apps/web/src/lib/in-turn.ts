/**
 * Costly work done a little at a time (issue 30 item 5): callbacks queued here run in tasks of their own, as many as
 * fit in a few milliseconds each, in the order they were queued. A page that renders ten markdown answers at once
 * blocked a phone for a second (total blocking time); in turns, the page answers input between them. The tasks come
 * from a MessageChannel: neither throttled like timers nor held by a test's paused clock.
 */
const BUDGET_MS = 8;
interface Work {
  run: () => void;
  /** Ends its turn: work that makes a component render, which happens as the turn's task ends. */
  alone: boolean;
}
const queue: Work[] = [];
let scheduled = false;

const channel = typeof MessageChannel === 'undefined' ? undefined : new MessageChannel();
if (channel) channel.port1.onmessage = () => runTurn();

function schedule() {
  if (scheduled) return;
  scheduled = true;
  if (channel) channel.port2.postMessage(null);
  else setTimeout(runTurn, 0);
}

function runTurn() {
  scheduled = false;
  const start = performance.now();
  while (queue.length > 0) {
    const work = queue.shift()!;
    work.run();
    if (work.alone || performance.now() - start >= BUDGET_MS) break;
  }
  if (queue.length > 0) schedule();
}

/**
 * Runs `run` in a coming turn; the function returned takes it off the queue if it has not run yet. `alone` ends the
 * turn after it: a state change renders when the task ends, outside the budget, so one render a turn.
 */
export function inTurn(run: () => void, { alone = false }: { alone?: boolean } = {}): () => void {
  const work = { run, alone };
  queue.push(work);
  schedule();
  return () => {
    const index = queue.indexOf(work);
    if (index >= 0) queue.splice(index, 1);
  };
}

/**
 * A promise that resolves in a task of its own: code that awaits it lets the browser paint and answer input first.
 * The app's start awaits it between its steps (main.tsx), so that no one task holds them all.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel === 'undefined') {
      setTimeout(resolve, 0);
      return;
    }
    const next = new MessageChannel();
    next.port1.onmessage = () => {
      next.port1.close();
      resolve();
    };
    next.port2.postMessage(null);
  });
}
