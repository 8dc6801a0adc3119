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
  opened.push(dispose);
  return { closedByBack: () => closes, close: dispose };
}
/** Every overlay a test opened: closed after it, so the module it used leaves history alone. */
const opened: (() => void)[] = [];

const onEntry = () => ((history.state ?? {}) as { irisOverlay?: boolean }).irisOverlay === true;
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeEach(async () => {
  history.replaceState({ _depth: 0 }, '');
  // Each test gets the module afresh: its open overlays and pending pops are module state.
  vi.resetModules();
  backCloses = await import('./backCloses');
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of opened.splice(0)) close();
  await tick();
  await backCloses.historySettled();
});

describe('Back closes the overlay on top', () => {
  it('an open overlay holds one entry at the same address; Back closes it and leaves the page', async () => {
    history.pushState({ _depth: 1, page: 'lane' }, '');
    const length = history.length;
    const overlay = openOverlay(backCloses);
    expect(history.length).toBe(length + 1);
    expect(history.state).toMatchObject({ _depth: 2, page: 'lane', irisOverlay: true });
    history.back();
    await tick();
    expect(overlay.closedByBack()).toBe(1);
    expect(history.state).toEqual({ _depth: 1, page: 'lane' });
  });

  it('closed by its own button, it pops its entry: Back afterwards leads where it did before', async () => {
    history.pushState({ _depth: 1, page: 'lane' }, '');
    const overlay = openOverlay(backCloses);
    overlay.close();
    expect(backCloses.overlayEntryLeaving()).toBeDefined();
    await backCloses.historySettled();
    expect(history.state).toEqual({ _depth: 1, page: 'lane' });
    expect(overlay.closedByBack()).toBe(0);
    expect(backCloses.overlayEntryLeaving()).toBeUndefined();
  });

  it('Back right after it closed by its button, before its entry went, still goes back a page', async () => {
    history.pushState({ _depth: 1, page: 'before' }, '');
    history.pushState({ _depth: 2, page: 'lane' }, '');
    const overlay = openOverlay(backCloses);
    overlay.close();
    history.back(); // the person's, while the entry is on its way out
    await tick();
    await backCloses.historySettled();
    await tick();
    expect(history.state).toEqual({ _depth: 1, page: 'before' });
    expect(overlay.closedByBack()).toBe(0);
  });

  it('with a menu over the viewer, Back closes the menu only, and the viewer keeps an entry', async () => {
    const viewer = openOverlay(backCloses);
    const menu = openOverlay(backCloses);
    history.back();
    await tick();
    expect(menu.closedByBack()).toBe(1);
    expect(viewer.closedByBack()).toBe(0);
    expect(onEntry()).toBe(true);
    history.back();
    await tick();
    expect(viewer.closedByBack()).toBe(1);
    expect(onEntry()).toBe(false);
  });

  it('question after question: the next one opening as the last closes keeps the entry, with no history call', async () => {
    const first = openOverlay(backCloses);
    const pushes = vi.spyOn(history, 'pushState');
    const backs = vi.spyOn(history, 'back');
    first.close();
    const second = openOverlay(backCloses);
    await tick();
    expect(pushes).not.toHaveBeenCalled();
    expect(backs).not.toHaveBeenCalled();
    expect(onEntry()).toBe(true);
    history.back();
    await tick();
    expect(second.closedByBack()).toBe(1);
  });

  it('an overlay opened while the entry goes gets one once it is gone, not before (the pop would take it)', async () => {
    const first = openOverlay(backCloses);
    // A busy page: the traversal lands 300 ms after it was asked for.
    const back = history.back.bind(history);
    vi.spyOn(history, 'back').mockImplementation(() => void setTimeout(back, 300));
    first.close();
    await tick(); // the drop has asked for the traversal
    const second = openOverlay(backCloses);
    expect(onEntry()).toBe(true); // still the first one's, on its way out
    await backCloses.historySettled();
    expect(onEntry()).toBe(true); // the second one's
    expect(second.closedByBack()).toBe(0);
    vi.restoreAllMocks();
    history.back();
    await tick();
    expect(second.closedByBack()).toBe(1);
  });

  it('a page opened from an overlay takes its entry: the router is told to replace it', () => {
    expect(backCloses.takeOverlayEntry()).toBe(false);
    openOverlay(backCloses);
    expect(backCloses.takeOverlayEntry()).toBe(true);
    expect(backCloses.takeOverlayEntry()).toBe(false);
  });

  it('Forward onto the entry of a closed overlay steps back to the page: there is nothing forward to show', async () => {
    history.pushState({ _depth: 1, page: 'lane' }, '');
    const overlay = openOverlay(backCloses);
    history.back();
    await tick();
    expect(overlay.closedByBack()).toBe(1);
    history.forward();
    await tick();
    await backCloses.historySettled();
    expect(history.state).toEqual({ _depth: 1, page: 'lane' });
  });

  it('after a reload on the overlays’ entry, the entry becomes the page’s own, in place', () => {
    history.pushState({ _depth: 1, irisOverlay: true }, '');
    const length = history.length;
    backCloses.dropStaleOverlayEntries();
    expect(history.state).toEqual({ _depth: 1 });
    expect(history.length).toBe(length);
  });

  it('a burst of overlays stops taking entries before the browser would ignore history calls', async () => {
    const pushes = vi.spyOn(history, 'pushState');
    for (let i = 0; i < 40; i++) {
      const overlay = openOverlay(backCloses);
      overlay.close();
      await backCloses.historySettled();
      await tick();
    }
    // 60 calls in 10 s: 30 overlays pushed and popped; the rest took no entry.
    expect(pushes).toHaveBeenCalledTimes(30);
    expect(onEntry()).toBe(false);
  });

  it('a browser with close requests (CloseWatcher) closes overlays itself: no entry is taken', () => {
    const length = history.length;
    Object.assign(window, { CloseWatcher: class {} });
    try {
      openOverlay(backCloses);
      expect(history.length).toBe(length);
      expect(onEntry()).toBe(false);
    } finally {
      delete (window as { CloseWatcher?: unknown }).CloseWatcher;
    }
  });

  it('there, a history step (a desktop’s Back button) closes what is open with the page it was over', async () => {
    history.pushState({ _depth: 1, page: 'lane' }, '');
    Object.assign(window, { CloseWatcher: class {} });
    try {
      const menu = openOverlay(backCloses);
      const dialog = openOverlay(backCloses);
      history.back();
      await tick();
      expect(menu.closedByBack()).toBe(1);
      expect(dialog.closedByBack()).toBe(1);
      // Closed, they listen no more: the next step closes nothing twice.
      history.back();
      await tick();
      expect(menu.closedByBack()).toBe(1);
      expect(dialog.closedByBack()).toBe(1);
    } finally {
      delete (window as { CloseWatcher?: unknown }).CloseWatcher;
    }
  });
});
