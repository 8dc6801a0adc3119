// Jumping to a message (a search result, a quote, a link): older pages are fetched until it is in the
// list, then it is centred, highlighted for a while and given keyboard focus.
import type { Virtualizer } from '@tanstack/solid-virtual';
import { createEffect, createSignal, on, onCleanup, untrack, type Accessor } from 'solid-js';
import type { LaneRow } from '../../../store/schema';
import type { OlderPages } from './olderPages';

const HIGHLIGHT_MS = 5000;

export interface JumpTo {
  jumpTo(messageId: string): void;
  /** The message jumped to, while it is highlighted. */
  highlighted: Accessor<string | undefined>;
  /** Why a jump could not land, in words. */
  notice: Accessor<string | undefined>;
  dismissNotice(): void;
}

export function useJumpTo(options: {
  /** The message asked for by the route: the list opens there, and moves there when it changes. */
  focusId: () => string | undefined;
  scroller: () => HTMLElement;
  virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement>;
  ids: Accessor<string[] | undefined>;
  keys: Accessor<string[]>;
  laneRow: Accessor<LaneRow | undefined>;
  /** How many messages the lane holds once no older page is left (read with the paging state), else undefined. */
  beginning: Accessor<number | undefined>;
  pages: Pick<OlderPages, 'loading' | 'loadOlder' | 'forgetPlace'>;
  /** The jump takes the reader away from the bottom. */
  leaveBottom: () => void;
  /** The reader has been placed (paging and read marks may start). */
  placed: () => void;
  /**
   * The jump is over (the row holds still, or the reader took over): whether the reader is at the end is
   * judged afresh. A lane that fits the screen, or a message at its end, is there, with no "Jump to latest".
   */
  settled: () => void;
  /** A jump the route asked for (`focusId`) has landed and settled, or could not land. */
  focusDone?: () => void;
}): JumpTo {
  const { virtualizer, ids, keys, laneRow, pages } = options;
  const [jumpTarget, setJumpTarget] = createSignal<string>();
  const [jumpTick, setJumpTick] = createSignal(0);
  const [highlighted, setHighlighted] = createSignal<string>();
  const [notice, setNotice] = createSignal<string>();
  let highlightTimer: ReturnType<typeof setTimeout> | undefined;
  // The centring of the jump before: a newer jump, or the list going, ends it.
  let stopCentring: (() => void) | undefined;
  onCleanup(() => {
    clearTimeout(highlightTimer);
    stopCentring?.();
  });

  function jumpTo(messageId: string) {
    setNotice(undefined);
    setJumpTarget(messageId);
  }

  // Open at the newest message (the bottom pin), or at the message asked for.
  let opened = false;
  createEffect(() => {
    if (ids() === undefined || opened) return;
    opened = true;
    untrack(() => {
      const focusId = options.focusId();
      if (focusId) jumpTo(focusId);
    });
  });

  createEffect(() => {
    const target = jumpTarget();
    jumpTick();
    if (!target) return;
    const index = keys().indexOf(target);
    const hasMore = laneRow()?.hasMore;
    const atBeginning = options.beginning();
    const listed = ids()?.length ?? 0;
    const busy = pages.loading();
    untrack(() => {
      if (index >= 0) {
        setJumpTarget(undefined);
        // Leaving the bottom: the pin must not pull the reader back while the rows get measured; nor may
        // the place kept for the page that brought the target (its restore can run after this, same flush).
        options.leaveBottom();
        pages.forgetPlace();
        virtualizer.scrollToIndex(index, { align: 'center' });
        stopCentring?.();
        stopCentring = centreWhenMeasured(options.scroller(), target, () => {
          options.settled();
          if (target === options.focusId()) options.focusDone?.();
        });
        setHighlighted(target);
        clearTimeout(highlightTimer);
        highlightTimer = setTimeout(() => setHighlighted(undefined), HIGHLIGHT_MS);
        focusMessage(options.scroller(), target);
        options.placed();
        return;
      }
      if (hasMore === false) {
        // The paging state can land before the last page's rows reach the list (separate live queries; under
        // load by seconds): the message is missing only once the list holds every message the lane has.
        if (atBeginning === undefined || listed < atBeginning) return;
        setJumpTarget(undefined);
        setNotice('That message is no longer in this conversation.');
        if (target === options.focusId()) options.focusDone?.();
        return;
      }
      if (busy) return;
      void pages.loadOlder().then((loaded) => {
        if (!loaded) {
          setJumpTarget(undefined);
          setNotice('Could not load older messages to find that one.');
        } else setJumpTick((t) => t + 1);
      });
    });
  });
  createEffect(on(options.focusId, (id) => id && opened && jumpTo(id), { defer: true }));

  return { jumpTo, highlighted, notice, dismissNotice: () => setNotice(undefined) };
}

/**
 * scrollToIndex centres on estimated row heights; as the rows around the target get measured it
 * drifts (on a phone, out of view behind the composer). Re-centre on the real row until it holds
 * still for a few frames, or the reader scrolls.
 */
function centreWhenMeasured(scroller: HTMLElement, messageId: string, settled: () => void): () => void {
  let frames = 0;
  let still = 0;
  let cancelled = false;
  let stopped = false;
  const cancel = () => (cancelled = true);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const unlisten = () => {
    for (const type of events) scroller.removeEventListener(type, cancel);
  };
  for (const type of events) scroller.addEventListener(type, cancel, { once: true, passive: true });
  const step = () => {
    if (stopped) return;
    const el = scroller.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
    if (cancelled || frames++ > 90 || still >= 4) {
      unlisten();
      settled();
      return;
    }
    if (el) {
      const view = scroller.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      // A message taller than the view starts at its top instead.
      const delta =
        box.height > view.height - 16
          ? box.top - view.top - 8
          : box.top + box.height / 2 - (view.top + view.height / 2);
      const before = scroller.scrollTop;
      if (Math.abs(delta) > 2) scroller.scrollTop += delta;
      // Still, or as near as the list can scroll (a chat that fits the screen cannot move at all).
      if (scroller.scrollTop !== before) still = 0;
      else still++;
    }
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
  // Stopped, not settled: the jump that stops it settles in its turn, and a list gone has nothing to settle.
  return () => {
    stopped = true;
    unlisten();
  };
}

/**
 * Moves keyboard focus to a message once the virtualizer has rendered it. Its actions (Reply, Copy,
 * Delete), which a focused message shows, wait for the person's own tap or key there: shown at once,
 * they covered the start of the message just found (`data-jumped`, MessageList.css).
 */
function focusMessage(scroller: HTMLElement, messageId: string, tries = 20) {
  requestAnimationFrame(() => {
    const el = scroller.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
    if (el) {
      el.dataset.jumped = '';
      // Focus lost to nothing is not the person's doing: the row moved in the list (keepFocusThroughMoves
      // gives it back), or the window went to the background.
      const own = (event: Event) => {
        if (event instanceof FocusEvent && event.relatedTarget === null) return;
        delete el.dataset.jumped;
        for (const type of ['pointerdown', 'keydown', 'focusout'] as const) el.removeEventListener(type, own);
      };
      for (const type of ['pointerdown', 'keydown', 'focusout'] as const) el.addEventListener(type, own);
      el.focus({ preventScroll: true });
    } else if (tries > 0) setTimeout(() => focusMessage(scroller, messageId, tries - 1), 50);
  });
}
