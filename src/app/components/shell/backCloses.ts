// Back closes the overlay on top (the picture viewer, a dialog, the drawer, a menu) instead of leaving
// the page under it, in every browser: Chrome 120+ turns Android's Back into a close request on a modal
// <dialog>, but Firefox, older browsers and a desktop's Back button go back a page. So each open overlay
// holds a history entry of its own, at the same address: Back pops it and the overlay closes. One
// closed another way (its button, Escape, an answer) pops its entry itself, so Back afterwards leads
// where it did before it opened. The hash router ignores these entries: their address does not change.
import { createUniqueId, onCleanup } from 'solid-js';

interface Overlay {
  id: string;
  close: () => void;
  /** Its entry is in the history (pushing waits for an earlier overlay's entry to be popped). */
  pushed: boolean;
}

const open: Overlay[] = [];
/** Settles when the history has no pop of ours under way: a push must not land before it. */
let settling: Promise<void> = Promise.resolve();
/** Entries of ours asked to be popped and not yet popped. */
let popsDue = 0;
/**
 * When we last pushed or popped (the last 10 s). Chrome ignores a page's history calls past 200 in 10 s
 * (IPC flooding protection), so a burst of overlays (a gateway asking a hundred questions at once, each
 * closed at once) gets no entries past a share of that: Back then does for them what it did before.
 */
const recentCalls: number[] = [];
const CALLS_PER_10_S = 60;

function mayCallHistory(): boolean {
  const now = Date.now();
  while (recentCalls.length > 0 && now - recentCalls[0]! > 10_000) recentCalls.shift();
  return recentCalls.length < CALLS_PER_10_S;
}
let listening = false;

function overlaysInEntry(state: unknown = history.state): string[] {
  const list = (state as { irisOverlays?: unknown } | null)?.irisOverlays;
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

/** Back (or Forward) moved to an entry: an overlay whose entry is no longer on the way closes. */
function onPopState() {
  const held = new Set(overlaysInEntry());
  for (const overlay of [...open].reverse()) {
    if (!overlay.pushed || held.has(overlay.id)) continue;
    open.splice(open.indexOf(overlay), 1);
    overlay.close();
  }
}

/**
 * Goes back `steps` entries and settles once the browser is there. A busy page can take long to hear
 * it: settling early would let a push land before the pop, which would then take the push away.
 */
function popEntries(steps: number): Promise<void> {
  popsDue += steps;
  settling = settling.then(
    () =>
      new Promise<void>((resolve) => {
        const before = history.state as unknown;
        const started = Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          window.removeEventListener('popstate', done);
          clearTimeout(timer);
          popsDue -= steps;
          resolve();
        };
        // Without a popstate: done once the entry has changed, or after 3 s (the traversal was refused).
        const check = () => {
          if (history.state !== before || Date.now() - started > 3000) done();
          else timer = setTimeout(check, 250);
        };
        timer = setTimeout(check, 1000);
        window.addEventListener('popstate', done);
        recentCalls.push(Date.now());
        history.go(-steps);
      }),
  );
  return settling;
}

function push(overlay: Overlay) {
  void settling.then(() => {
    if (!open.includes(overlay) || overlay.pushed || !mayCallHistory()) return;
    recentCalls.push(Date.now());
    const state = (history.state ?? {}) as { _depth?: unknown };
    const depth = typeof state._depth === 'number' ? state._depth : history.length - 1;
    // The router's depth stamp, one further, as an entry the router made would have.
    history.pushState({ ...state, _depth: depth + 1, irisOverlays: [...overlaysInEntry(), overlay.id] }, '');
    overlay.pushed = true;
  });
}

/** The overlay was closed by other means than Back: its entry goes, when it is the one on top. */
function release(overlay: Overlay) {
  const at = open.indexOf(overlay);
  if (at < 0) return; // closed by Back: its entry is gone already
  open.splice(at, 1);
  const entries = overlaysInEntry();
  if (overlay.pushed && entries[entries.length - 1 - popsDue] === overlay.id) void popEntries(1);
}

/**
 * Call in an overlay's component while it is open (from its mount to its cleanup): Back closes it
 * through `close` (the owner's own way of closing it), and its history entry goes with it.
 */
export function useBackCloses(close: () => void): void {
  if (!listening) {
    window.addEventListener('popstate', onPopState);
    listening = true;
  }
  const overlay: Overlay = { id: createUniqueId(), close, pushed: false };
  open.push(overlay);
  push(overlay);
  onCleanup(() => release(overlay));
}

/**
 * Before the app moves to another page: the entries of open overlays are popped first (which closes
 * them), so the new page takes the place after the page they were opened on, and Back from it leads
 * there in one step. Resolves at once when there are none.
 */
export function leaveOverlays(): Promise<void> | undefined {
  // An overlay that closed as the person chose the page (the drawer) has asked for its pop already.
  const steps = overlaysInEntry().length - popsDue;
  if (steps > 0) return popEntries(steps);
  return popsDue > 0 ? settling : undefined;
}

/**
 * Settles once no pop of ours is under way: the app's own back arrow reads where history stands after
 * a menu it closed (a tap outside it) has taken its entry away.
 */
export function historySettled(): Promise<void> {
  return settling;
}

/**
 * At start: this entry was an overlay's before a reload, and nothing is open over the page now. It
 * becomes the page's own (stepping back over it could load the page a second time, in a browser that
 * keeps a reloaded document's entries apart); the step it adds is the cost.
 */
export function dropStaleOverlayEntries(): void {
  if (overlaysInEntry().length === 0) return;
  const { irisOverlays: _dropped, ...state } = history.state as Record<string, unknown>;
  history.replaceState(state, '');
}
