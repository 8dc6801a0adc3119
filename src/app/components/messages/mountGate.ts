// When a row of the list puts its message in. A row on screen does so at once; a row the virtualizer
// mounts ahead of the reader (its overscan, off screen) waits for a task after the frame, a few rows
// per task, nearest first, holding a placeholder of the estimated size meanwhile (as a row whose
// message is not read yet does). Scrolling mounts rows in bursts: a step across short messages, or
// onto rows measured smaller than estimated, brought five or six at once into one frame and none into
// the next ones; put in this way, the work goes into the frames' spare time instead.
import { createSignal, onCleanup, untrack, type Accessor } from 'solid-js';

/** A row's place in the list: [start, end) in px from the top of the scrolled content. */
export type Place = readonly [start: number, end: number];

export interface MountGate {
  /**
   * Whether the row at `place` shows its message yet (call while the row is created: it waits under
   * the row's owner). `place` undefined: not known, shown at once; `now`: shown at once.
   */
  admit(place: () => Place | undefined, now?: boolean): Accessor<boolean>;
  /** Puts in at once every waiting row that came on screen (call when the view or the places move). */
  check(): void;
}

/** Milliseconds of waiting rows put in per task. */
const TASK_BUDGET_MS = 6;

interface Waiting {
  place: () => Place | undefined;
  show: () => void;
}

/**
 * `view()` is the part of the list on screen, [top, bottom) in the same px as the places, or undefined
 * while not known (then every row shows at once). Must run inside a reactive owner.
 */
export function createMountGate(view: () => Place | undefined, budgetMs = TASK_BUDGET_MS): MountGate {
  const waiting = new Set<Waiting>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const onScreen = (place: Place | undefined, seen: Place | undefined) =>
    !place || !seen || (place[1] > seen[0] && place[0] < seen[1]);
  const distance = (place: Place | undefined, seen: Place | undefined) =>
    !place || !seen ? 0 : Math.max(0, seen[0] - place[1], place[0] - seen[1]);

  const show = (row: Waiting) => {
    waiting.delete(row);
    row.show();
  };

  const drain = () => {
    timer = undefined;
    const seen = untrack(view);
    const order = untrack(() =>
      [...waiting].map((row) => ({ row, d: distance(row.place(), seen) })).sort((a, b) => a.d - b.d),
    );
    const deadline = performance.now() + budgetMs;
    for (const { row } of order) {
      if (!waiting.has(row)) continue;
      show(row);
      if (performance.now() >= deadline) break;
    }
    schedule();
  };

  const schedule = () => {
    if (waiting.size > 0 && timer === undefined) timer = setTimeout(drain, 0);
  };

  onCleanup(() => {
    if (timer !== undefined) clearTimeout(timer);
    waiting.clear();
  });

  return {
    admit(place, now = false) {
      if (now || untrack(() => onScreen(place(), view()))) return () => true;
      const [shown, setShown] = createSignal(false);
      const row: Waiting = { place, show: () => setShown(true) };
      waiting.add(row);
      onCleanup(() => waiting.delete(row));
      schedule();
      return shown;
    },
    check() {
      if (waiting.size === 0) return;
      untrack(() => {
        const seen = view();
        for (const row of [...waiting]) if (onScreen(row.place(), seen)) show(row);
      });
    },
  };
}
