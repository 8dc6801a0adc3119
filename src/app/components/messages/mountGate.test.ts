import { afterEach, describe, expect, it, vi } from 'vitest';
import { until } from '../../../testing/until';
import type { Place } from './mountGate';

// The app runs Solid's browser build (reactive); Node would resolve the server build.
vi.mock('solid-js', async () => {
  // @ts-expect-error the browser build has no .d.ts of its own; its types are solid-js's.
  return await import('solid-js/dist/solid.js');
});
const { createComputed, createRoot } = await import('solid-js');
const { createMountGate } = await import('./mountGate');

let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

/** A gate over a view that the test moves; rows are admitted each under their own root, as list rows are. */
function gateOver(initial: Place | undefined) {
  let view = initial;
  const rows = new Map<string, { place: Place; shown: () => boolean; dispose: () => void }>();
  let gate!: ReturnType<typeof createMountGate>;
  dispose = createRoot((d) => {
    gate = createMountGate(() => view, 1000);
    return d;
  });
  const add = (name: string, place: Place) =>
    createRoot((d) => {
      const row = { place, shown: () => false, dispose: d };
      rows.set(name, row);
      row.shown = gate.admit(() => row.place);
      return row;
    });
  return {
    gate,
    add,
    rows,
    setView: (next: Place) => (view = next),
    shown: () => [...rows].filter(([, r]) => r.shown()).map(([name]) => name),
  };
}

describe('createMountGate', () => {
  it('shows a row on screen at once and one off screen after the current task', async () => {
    const list = gateOver([1000, 1800]);
    list.add('on', [900, 1100]);
    list.add('above', [500, 900]);
    list.add('below', [1800, 2000]);
    expect(list.shown()).toEqual(['on']);
    await until(() => list.shown().length === 3);
  });

  it('puts waiting rows in nearest first, as many as the budget of a task allows', () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => now);
      const order: string[] = [];
      let gate!: ReturnType<typeof createMountGate>;
      dispose = createRoot((d) => {
        gate = createMountGate(() => [1000, 1800], 5);
        return d;
      });
      const add = (name: string, place: Place) =>
        createRoot(() => {
          const shown = gate.admit(() => place);
          // Putting a row in takes 3 ms.
          createComputed(() => {
            if (!shown()) return;
            order.push(name);
            now += 3;
          });
        });
      add('far', [0, 100]);
      add('near', [800, 1000]);
      add('middle', [400, 500]);
      expect(order).toEqual([]);
      // One task: the nearest row, then the next, and the budget of 5 ms is spent.
      vi.advanceTimersToNextTimer();
      expect(order).toEqual(['near', 'middle']);
      vi.advanceTimersToNextTimer();
      expect(order).toEqual(['near', 'middle', 'far']);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('shows a waiting row as soon as the view reaches it', () => {
    vi.useFakeTimers();
    try {
      const list = gateOver([1000, 1800]);
      list.add('above', [500, 900]);
      expect(list.shown()).toEqual([]);
      list.setView([400, 1200]);
      list.gate.check();
      expect(list.shown()).toEqual(['above']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets a row removed while it waits', () => {
    vi.useFakeTimers();
    try {
      const list = gateOver([1000, 1800]);
      const row = list.add('above', [500, 900]);
      row.dispose();
      list.setView([400, 1200]);
      list.gate.check();
      vi.runAllTimers();
      expect(row.shown()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows every row at once while the view is not known', () => {
    const list = gateOver(undefined);
    list.add('a', [0, 100]);
    list.add('b', [5000, 5100]);
    expect(list.shown()).toEqual(['a', 'b']);
  });
});
