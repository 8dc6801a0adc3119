import { createRoot } from 'solid-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Module = typeof import('./backCloses');
let backCloses: Module;

/** An overlay opened as a component would open it; `close()` is its owner closing it another way. */
function openOverlay(m: Module): { closedByBack: () => number; close: () => void } {
  let closes = 0;
  const dispose = createRoot((dispose) => {
    m.useBackCloses(() => {
      closes++;
      dispose();
    });
    return dispose;
  });
  return { closedByBack: () => closes, close: dispose };
}

const overlaysInEntry = () => ((history.state ?? {}) as { irisOverlays?: string[] }).irisOverlays ?? [];
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(async () => {
  history.replaceState({ _depth: 0 }, '');
  // Each test gets the module afresh: its open overlays and pending pops are module state.
  vi.resetModules();
  backCloses = await import('./backCloses');
});
afterEach(() => vi.restoreAllMocks());

describe('Back closes the overlay on top', () => {
  it('an overlay holds an entry at the same address; Back closes it and leaves the page', async () => {
    const length = history.length;
    const overlay = openOverlay(backCloses);
    await tick();
    expect(history.length).toBe(length + 1);
    expect(overlaysInEntry()).toHaveLength(1);
    history.back();
    await tick();
    expect(overlay.closedByBack()).toBe(1);
    expect(overlaysInEntry()).toEqual([]);
  });

  it('closed by its own button, it pops its entry: Back afterwards leads where it did before', async () => {
    history.pushState({ _depth: 1, page: 'lane' }, '');
    const overlay = openOverlay(backCloses);
    await tick();
    overlay.close();
    await backCloses.historySettled();
    expect(history.state).toMatchObject({ page: 'lane' });
    expect(overlaysInEntry()).toEqual([]);
    expect(overlay.closedByBack()).toBe(0);
  });

  it('with a menu over the viewer, Back closes the menu only', async () => {
    const viewer = openOverlay(backCloses);
    await tick();
    const menu = openOverlay(backCloses);
    await tick();
    expect(overlaysInEntry()).toHaveLength(2);
    history.back();
    await tick();
    expect(menu.closedByBack()).toBe(1);
    expect(viewer.closedByBack()).toBe(0);
    expect(overlaysInEntry()).toHaveLength(1);
  });

  it('a pop is done only once history has moved: a slow one does not take the next overlay’s entry away', async () => {
    const first = openOverlay(backCloses);
    await tick();
    // A busy page: the traversal lands 1.5 s after it was asked for.
    const go = history.go.bind(history);
    vi.spyOn(history, 'go').mockImplementation((delta?: number) => void setTimeout(() => go(delta), 1500));
    first.close();
    const second = openOverlay(backCloses);
    await new Promise((resolve) => setTimeout(resolve, 1800));
    await tick();
    expect(second.closedByBack()).toBe(0);
    expect(overlaysInEntry()).toHaveLength(1);
  });

  it('a page opened from an overlay waits for its entries to go', async () => {
    openOverlay(backCloses);
    await tick();
    const leaving = backCloses.leaveOverlays();
    expect(leaving).toBeDefined();
    await leaving;
    expect(overlaysInEntry()).toEqual([]);
    expect(backCloses.leaveOverlays()).toBeUndefined();
  });

  it('after a reload on an overlay’s entry, the entry becomes the page’s own, in place', () => {
    history.pushState({ _depth: 1, irisOverlays: ['cl-0'] }, '');
    const length = history.length;
    backCloses.dropStaleOverlayEntries();
    expect(history.state).toEqual({ _depth: 1 });
    expect(history.length).toBe(length);
  });

  it('a burst of overlays stops taking entries before the browser would ignore history calls', async () => {
    const pushes = vi.spyOn(history, 'pushState');
    for (let i = 0; i < 40; i++) {
      const overlay = openOverlay(backCloses);
      await tick();
      overlay.close();
      await backCloses.historySettled();
    }
    // 60 calls in 10 s: 30 overlays pushed and popped; the rest took no entry.
    expect(pushes).toHaveBeenCalledTimes(30);
    expect(overlaysInEntry()).toEqual([]);
  });
});
