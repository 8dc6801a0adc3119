// A service of the runtime that a screen wants but need not wait for (the local search index, the
// media machinery) starts in the first idle moment after the screen is shown, from its own chunk.
// Until then the screens waiting for it hold the start: when every one has gone first, it does not
// start (a test unmounts, then stops its runtime and deletes its database; a service started after
// that fails on it), and the next screen shown schedules it again. Once started, the runtime owns it
// and stops it with itself (runtime.stop()).
import type { IrisRuntime, RuntimeParts } from '../runtime';
import { whenIdle } from './loadWhenIdle';

/** Loads a service's chunk and gives its start (what `runtime.shared` takes). */
export type ServiceLoad = () => Promise<(parts: RuntimeParts) => unknown>;

interface PendingStart {
  waiting: number;
  started: boolean;
  cancel(): void;
}

/** Per runtime (one in the app; tests mount several), per service. */
const starts = new WeakMap<IrisRuntime, Map<ServiceLoad, PendingStart>>();

/**
 * Starts the service `load` gives, in this runtime, once the page is idle (at most `within` ms later).
 * Returns the screen's release (for onCleanup).
 */
export function startWhenIdle(iris: IrisRuntime, load: ServiceLoad, within: number): () => void {
  let byService = starts.get(iris);
  if (!byService) starts.set(iris, (byService = new Map<ServiceLoad, PendingStart>()));
  const start = byService.get(load) ?? schedule(iris, byService, load, within);
  start.waiting++;
  return () => {
    start.waiting--;
    if (start.waiting === 0 && !start.started) start.cancel();
  };
}

function schedule(
  iris: IrisRuntime,
  byService: Map<ServiceLoad, PendingStart>,
  load: ServiceLoad,
  within: number,
): PendingStart {
  const entry: PendingStart = { waiting: 0, started: false, cancel: () => {} };
  const current = () => byService.get(load) === entry;
  const stopWaiting = whenIdle(() => {
    load().then(
      (start) => {
        if (!current()) return; // every screen that wanted it left while it loaded
        entry.started = true;
        iris.shared(start);
      },
      (error: unknown) => {
        if (current()) byService.delete(load); // the next screen shown tries again
        console.warn('iris: could not load a background service', error);
      },
    );
  }, within);
  entry.cancel = () => {
    stopWaiting();
    if (current()) byService.delete(load);
  };
  byService.set(load, entry);
  return entry;
}
