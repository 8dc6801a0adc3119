// Showing a long list of pieces a few at a time: the first ones at once, the rest in later tasks, so
// no single task lays out a whole huge document and the page keeps answering in between.
import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';

/** How many of `total()` pieces to show: `first` at once, then `step` more per task until all are. */
export function createProgressive(total: Accessor<number>, first: number, step: number): Accessor<number> {
  const [shown, setShown] = createSignal(first);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grow = () => {
    timer = undefined;
    setShown((n) => n + step);
  };
  createEffect(() => {
    if (shown() < total() && timer === undefined) timer = setTimeout(grow, 0);
  });
  onCleanup(() => {
    if (timer !== undefined) clearTimeout(timer);
  });
  return () => Math.min(shown(), total());
}
