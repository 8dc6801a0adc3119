// Back closes the overlay on top (the picture viewer, a dialog, the drawer, a menu) instead of going back
// a page under it. Browsers with close requests (CloseWatcher: Chromium 126+) do that themselves: Android's
// Back closes a modal <dialog> or a menu's watcher. Firefox and Safari have none, so there, while anything is
// open over the page, the page holds one history entry of its own at the same address: Back pops it and the
// top overlay closes. Closed another way (its button, Escape, an answer), the last overlay pops the entry
// itself, so Back afterwards leads where it did before. The hash router ignores the entry: the address is
// the same. One entry for all of them, not one each: a gateway asking question after question would
// otherwise push and pop history for each (browsers refuse such bursts, and waiting on them stalled pages).
// In Chromium, a desktop's Back button is still a history step (not a close request): what is open closes
// with the page it was over.
import { useBeforeLeave, useNavigate } from '@solidjs/router';
import { onCleanup } from 'solid-js';

const MARK = 'irisOverlay';

/** The open overlays, the top one last: how each closes when Back pops the entry. */
const open: (() => void)[] = [];
/** The entry is in the history, the current one. */
let held = false;
/** A history.back() of ours, settling once the browser has gone back (or after 1 s: refused). */
let popping: Promise<void> | undefined;
/** The last overlay closed: its entry goes in a moment, unless another one opens first (the next question). */
let dropping: Promise<void> | undefined;
let listening = false;

/** History calls in the last 10 s: browsers ignore a page's calls past 200 in 10 s, so ours stop at 60. */
const recentCalls: number[] = [];
function mayCallHistory(): boolean {
  const now = Date.now();
  while (recentCalls.length > 0 && now - recentCalls[0]! > 10_000) recentCalls.shift();
  if (recentCalls.length >= 60) return false;
  recentCalls.push(now);
  return true;
}

const isMark = (state: unknown = history.state) => (state as Record<string, unknown> | null)?.[MARK] === true;

/** Where this browser closes overlays on Back itself (Chromium's close requests). */
function browserCloses(): boolean {
  return 'CloseWatcher' in window;
}

function hold() {
  if (held || popping || dropping || open.length === 0 || !mayCallHistory()) return;
  const state = (history.state ?? {}) as { _depth?: unknown };
  const depth = typeof state._depth === 'number' ? state._depth : history.length - 1;
  // The router's depth stamp, one further, as an entry the router made would have.
  history.pushState({ ...state, _depth: depth + 1, [MARK]: true }, '');
  held = true;
}

function popEntry(): Promise<void> {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  // Set before the traversal: a browser may tell of it at once.
  popping = settled;
  const done = () => {
    window.removeEventListener('popstate', done);
    clearTimeout(timer);
    if (popping === settled) popping = undefined;
    settle();
    hold(); // an overlay opened while it went
  };
  const timer = setTimeout(done, 1000);
  window.addEventListener('popstate', done);
  history.back();
  return settled;
}

/** Back (or Forward) moved off the entry or onto one. */
function onPopState() {
  if (popping) return; // ours
  if (held && !isMark()) {
    held = false;
    const top = open.pop();
    if (top) {
      top();
      hold(); // something else is still open (a menu's dialog)
    } else if (mayCallHistory()) {
      // The last overlay closed a moment ago and its entry had not gone yet: this Back was meant for the
      // page, so it goes back a page too.
      void popEntry();
    }
  } else if (!held && isMark()) {
    // Forward onto an entry whose overlay is closed: there is nothing forward of the page to show.
    if (open.length > 0) held = true;
    else if (mayCallHistory()) void popEntry();
  }
}

function release(close: () => void) {
  const at = open.indexOf(close);
  if (at < 0) return; // closed by Back: its entry is gone already
  open.splice(at, 1);
  if (open.length > 0 || !held || dropping) return;
  dropping = new Promise<void>((resolve) => {
    setTimeout(() => {
      dropping = undefined;
      if (open.length > 0 || !held) return resolve();
      held = false;
      if (!isMark() || !mayCallHistory()) return resolve();
      void popEntry().then(resolve);
    }, 0);
  });
}

/**
 * Call in an overlay's component while it is open (from its mount to its cleanup): Back closes it
 * through `close` (the owner's own way of closing it), and the page's entry goes with the last one.
 */
export function useBackCloses(close: () => void): void {
  if (typeof window === 'undefined') return;
  if (browserCloses()) {
    // Its close requests are Android's Back, not a desktop's Back button: that one is a history step, and
    // the page goes back under the overlay. The overlay goes with the page it was over (the rename
    // dialog, the app frame's, stayed open over the page before).
    const onTraverse = () => close(); // its own identity: one owner may register `close` twice
    window.addEventListener('popstate', onTraverse);
    onCleanup(() => window.removeEventListener('popstate', onTraverse));
    return;
  }
  if (!listening) {
    window.addEventListener('popstate', onPopState);
    listening = true;
  }
  const entry = () => close(); // its own identity, should one owner register `close` twice
  open.push(entry);
  hold();
  onCleanup(() => release(entry));
}

/**
 * Before the app moves to another page: true when the overlays' entry is the current one, which the new
 * page must then replace (navigate with `replace`), so Back from it leads to the page before in one step.
 * The overlays still open after it get an entry after the new page.
 */
export function takeOverlayEntry(): boolean {
  if (!held) return false;
  held = false;
  setTimeout(hold, 0);
  return true;
}

/** While the overlays' entry is on its way out: a navigation must wait, or the pop would take it away. */
export function overlayEntryLeaving(): Promise<void> | undefined {
  return dropping ?? popping;
}

/** Settles once no entry of ours is on its way out: the top bar's arrow reads where history stands. */
export function historySettled(): Promise<void> {
  return (dropping ?? Promise.resolve()).then(() => popping);
}

/**
 * At start: this entry was the overlays' before a reload, and nothing is open over the page now. It
 * becomes the page's own (stepping back over it could load the page a second time, in a browser that
 * keeps a reloaded document's entries apart); the step it adds is the cost.
 */
export function dropStaleOverlayEntries(): void {
  if (typeof window === 'undefined' || !isMark()) return;
  const { [MARK]: _dropped, ...state } = history.state as Record<string, unknown>;
  history.replaceState(state, '');
}

/**
 * In the app frame, once: a page opened from an overlay (a channel in the drawer, a link in a dialog)
 * takes the place of the overlays' history entry, not a place after it, so Back from it leads to the
 * page before in one step; and a navigation waits while the entry is on its way out.
 */
export function useOverlayEntryOnLeave(): void {
  dropStaleOverlayEntries();
  const navigate = useNavigate();
  useBeforeLeave((event) => {
    if (event.defaultPrevented || typeof event.to !== 'string') return;
    const leaving = overlayEntryLeaving();
    if (leaving) {
      event.preventDefault();
      void leaving.then(() => event.retry());
    } else if (takeOverlayEntry() && !event.options?.replace) {
      event.preventDefault();
      navigate(event.to, { ...event.options, replace: true, resolve: false });
    }
  });
}
