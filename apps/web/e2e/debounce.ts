import { expect, type Locator, type Page } from '@playwright/test';

/** The debounce of typed filters (spec §9, A-141). */
export const DEBOUNCE_MS = 300;

/**
 * Lets the page finish what the last keystroke started. The field shows a typed character at once, but the app's
 * render and effects (where the debounce's timer is set) follow in tasks of their own: React's scheduler runs them after
 * a MessageChannel message, which the paused clock does not hold. A clock moved on before that
 * effect ran would leave its timer for later, and the debounce would never run out (seen once in a full run on a busy
 * machine). Two message round trips in the page come after the app's own.
 */
async function appCaughtUp(page: Page) {
  await page.evaluate(async () => {
    for (let round = 0; round < 2; round += 1) {
      await new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    }
  });
}

/**
 * Types `parts` into a debounced field while the page's clock stands still (the test must have called
 * `page.clock.install()` before the page loaded), so that however slow the machine, no debounce runs out between
 * keystrokes. Between two parts the clock moves on 1 ms less than the debounce; after the last part, by the
 * debounce. A field with a 300 ms debounce thus asks once, with the whole text; one with a shorter debounce (or
 * none) also asks with a part, and one with a longer debounce never asks while the clock stands. Counting the
 * requests afterwards says which. The clock runs on its own again at the end.
 */
export async function typeDebounced(page: Page, field: Locator, parts: string[], settled: () => Promise<unknown>) {
  // Paused a little ahead of the page's time; on a busy machine that moment may have passed before the call lands.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
      break;
    } catch (error) {
      if (attempt === 5 || !/past/i.test(String(error))) throw error;
    }
  }
  let typed = await field.inputValue();
  for (const [index, part] of parts.entries()) {
    await field.pressSequentially(part);
    typed += part;
    await expect(field).toHaveValue(typed);
    await appCaughtUp(page);
    await page.clock.runFor(index < parts.length - 1 ? DEBOUNCE_MS - 1 : DEBOUNCE_MS);
  }
  // Still standing: only the debounce that ran out can have moved the page on.
  await settled();
  await page.clock.resume();
}
