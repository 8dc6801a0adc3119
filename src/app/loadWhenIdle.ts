// Parts of a screen that only a person's action brings (a dialog, a menu, the recorder) load on demand,
// and are fetched in the first idle moment after the screen is shown. A page that the service worker
// does not control yet (the first visit: it precaches the build but takes over on the next load) then
// has them in memory, so they still work if the server goes away before they are first used.

/** Runs each load once the page is idle (at most `within` ms later); a failed one is left to its first use. */
export function loadWhenIdle(loads: readonly (() => Promise<unknown>)[], within = 1000): void {
  const run = () => {
    for (const load of loads) load().catch(() => undefined); // the part's first use loads it again, and says so if it cannot
  };
  whenIdle(run, within);
}

/**
 * Runs `run` once the page is idle, at most `within` ms later (a timer where idle callbacks are
 * missing); returns what cancels it.
 */
export function whenIdle(run: () => void, within: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: within });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 500);
  return () => clearTimeout(handle);
}

/**
 * Runs `steps` in order, each in an idle callback of its own (at most `within` ms after the one before):
 * one-time costs paid ahead, split so that no one task of them is long. A step that throws leaves its
 * cost to the first use and the next steps still run.
 */
export function stepsWhenIdle(steps: readonly (() => void)[], within = 1000): void {
  let next = 0;
  const run = () => {
    const step = steps[next++];
    if (next < steps.length) whenIdle(run, within);
    try {
      step?.();
    } catch {
      // A warm-up only: the same work is done (and fails loudly) where it is used.
    }
  };
  if (steps.length) whenIdle(run, within);
}
