// Following the newest message: a reader at the bottom stays there while rows arrive, stream, get
// measured and the viewport changes size; one up in the history gets a pill when something new arrives.
import { createEffect, createSignal, on, onCleanup, onMount, untrack, type Accessor } from 'solid-js';

/** Within this many px of the bottom counts as "at the newest message". */
const AT_END_PX = 80;

export interface BottomPin {
  /** The reader is at the newest message (the list follows it). */
  atEnd: Accessor<boolean>;
  /** A message arrived while the reader was up in the history. */
  unseen: Accessor<boolean>;
  /** The reader was moved away from the bottom (a jump to a message): the pin lets go. */
  leave(): void;
  /** Judges, on a scroll, whether the reader is still at the end. */
  measure(): void;
  /** Back to the newest message (the pill, or the reader's own message). */
  scrollToNewest(): void;
}

export function useBottomPin(options: {
  scroller: () => HTMLElement;
  /** The list's height, read so the pin re-runs when rows get measured. */
  totalSize: () => number;
  keys: Accessor<string[]>;
}): BottomPin {
  const { keys } = options;
  const [atEnd, setAtEnd] = createSignal(true);
  const [unseen, setUnseen] = createSignal(false);
  let lastScrollTop = 0;
  /**
   * Near the bottom: at the end. Away from it, only a move up means the reader left: a reply growing
   * below (by more than AT_END_PX between our pin and its scroll event) must not stop the following.
   */
  const measure = () => {
    const scroller = options.scroller();
    const top = scroller.scrollTop;
    const distance = scroller.scrollHeight - top - scroller.clientHeight;
    if (distance < AT_END_PX) setAtEnd(true);
    else if (top < lastScrollTop - 1) setAtEnd(false);
    lastScrollTop = top;
  };
  /**
   * A scroll of the reader's whose event has not come yet (it comes with the next frame), judged now:
   * a pin in between (a row put in or measured, a reply growing) would undo it, pulling the reader who
   * had just left the bottom back down. Left: moved up by AT_END_PX or more since the last look, and
   * that far from the bottom still (a list that got shorter moves scrollTop up by itself, to its end).
   */
  const judgeUnhandledScroll = () => {
    const scroller = options.scroller();
    const top = scroller.scrollTop;
    if (top < lastScrollTop - AT_END_PX && scroller.scrollHeight - top - scroller.clientHeight >= AT_END_PX) {
      setAtEnd(false);
      lastScrollTop = top;
    }
  };
  /** Puts the newest message at the bottom of the viewport. */
  const pinToBottom = () => {
    const scroller = options.scroller();
    scroller.scrollTop = scroller.scrollHeight;
    // Our own move: the reader's next scroll (maybe in this same frame) is judged from here.
    lastScrollTop = scroller.scrollTop;
  };
  onMount(() => {
    // The viewport changed size (keyboard, composer growing): a reader at the bottom stays there.
    const resize = new ResizeObserver(() => {
      judgeUnhandledScroll();
      if (untrack(atEnd)) pinToBottom();
      else measure();
    });
    resize.observe(options.scroller());
    onCleanup(() => resize.disconnect());
  });

  const scrollToNewest = () => {
    setAtEnd(true);
    pinToBottom();
    setUnseen(false);
  };

  // A reader at the bottom stays there while rows arrive, stream and get measured. Effects run after the
  // DOM is updated, so scrollHeight already includes the new size.
  createEffect(() => {
    options.totalSize();
    keys();
    if (!untrack(atEnd)) return;
    judgeUnhandledScroll();
    if (untrack(atEnd)) pinToBottom();
  });

  // A new message while the reader is up in the history: a pill, not a jump. Their own message: go down.
  createEffect(
    on(keys, (next, prev) => {
      if (!prev || next.length <= prev.length) return;
      const last = next[next.length - 1];
      if (last === prev[prev.length - 1]) return;
      if (last?.startsWith('local:')) scrollToNewest();
      else if (!untrack(atEnd)) setUnseen(true);
    }),
  );
  createEffect(() => {
    if (atEnd()) setUnseen(false);
  });

  return { atEnd, unseen, leave: () => setAtEnd(false), measure, scrollToNewest };
}
