// Older history: a page is fetched when the reader nears the top, and the reader's place is kept while
// it is prepended above them.
import type { Virtualizer } from '@tanstack/solid-virtual';
import { createEffect, createSignal, on, untrack, type Accessor } from 'solid-js';
import type { IrisClient } from '../../../client';
import type { LaneRow } from '../../../store/schema';

/** After a page failed to load, the next one is not asked for before this (ms). */
const RETRY_AFTER_MS = 3000;

export interface OlderPages {
  loading: Accessor<boolean>;
  /**
   * The last page asked for failed at the gateway (an error, or no answer) and none loaded since (a live
   * message is no page): the list says so where older messages would appear, or a lane whose history
   * fails stays blank. Not when offline (the banner says that; pages load when back).
   */
  failed: Accessor<boolean>;
  /** Asks for the page again now (the person's Try again). */
  retry(): void;
  /**
   * An empty lane's newest page, asked for by the list (an empty lane is never placed, so no scroll asks):
   * the session asks for it after every sync too, but drops a failure unseen; this one says so (failed).
   */
  loadNewest(): Promise<boolean>;
  /** Fetches the page before the oldest stored message; false if it failed. */
  loadOlder(): Promise<boolean>;
  /** On every scroll: remember the reader's place, and fetch a page if they are near the top. */
  onScroll(): void;
  /** The reader was moved elsewhere (a jump): a page landing next must not put them back at their old place. */
  forgetPlace(): void;
}

export function useOlderPages(options: {
  lane: string;
  client: Pick<IrisClient, 'loadOlder' | 'loadNewest'>;
  scroller: () => HTMLElement;
  virtualizer: Virtualizer<HTMLDivElement, HTMLDivElement>;
  ids: Accessor<string[] | undefined>;
  keys: Accessor<string[]>;
  laneRow: Accessor<LaneRow | undefined>;
  atEnd: Accessor<boolean>;
  /** The reader has been placed: until then the first frames (rows at the top) must not load pages. */
  ready: Accessor<boolean>;
}): OlderPages {
  const { client, virtualizer, ids, keys, laneRow, atEnd, ready } = options;
  const [loading, setLoading] = createSignal(false);
  const [failed, setFailed] = createSignal(false);
  let failedAt = 0;
  /** A page failed at the gateway (an error, no answer); offline is no failure of it (the banner says so). */
  const failedWith = (err: unknown) => setFailed(!(err instanceof Error && err.name === 'ConnectionLostError'));
  const loadOlder = async (): Promise<boolean> => {
    if (loading()) return true;
    setLoading(true);
    try {
      await client.loadOlder(options.lane);
      setFailed(false);
      return true;
    } catch (err) {
      failedAt = Date.now();
      failedWith(err);
      return false;
    } finally {
      setLoading(false);
    }
  };
  // Not `loading`: the session asks for the same page at the same moment, and older pages must not wait for it.
  let askingNewest = false;
  const loadNewest = async (): Promise<boolean> => {
    if (askingNewest) return true;
    askingNewest = true;
    try {
      await client.loadNewest(options.lane);
      setFailed(false);
      return true;
    } catch (err) {
      failedWith(err);
      return false;
    } finally {
      askingNewest = false;
    }
  };
  /**
   * Older history is asked for when the reader is within a screen of the top. Decided on scroll (and
   * once placed), not on every render: right after a page is prepended the rows briefly sit at the
   * top before the reader's anchor is restored, and that must not fetch yet another page.
   */
  const maybeLoadOlder = () => {
    if (!ready() || loading() || laneRow()?.hasMore === false) return;
    if (Date.now() - failedAt < RETRY_AFTER_MS) return;
    const scroller = options.scroller();
    if (scroller.scrollTop > scroller.clientHeight) return;
    const countBefore = ids()?.length ?? 0;
    void loadOlder().then(() =>
      // Still near the top (a short lane fills the screen page by page), but only if the page added rows.
      setTimeout(() => (ids()?.length ?? 0) > countBefore && maybeLoadOlder(), 250),
    );
  };
  createEffect(() => {
    // A frame later: the reader is placed at the newest message by then.
    if (ready()) requestAnimationFrame(maybeLoadOlder);
  });

  // ---- keeping the reader's place when older messages are prepended --------------------------
  /** The first row on screen and how far the viewport's top is below that row's top. */
  let anchor: { key: string; delta: number } | undefined;
  function rememberAnchor() {
    const top = options.scroller().scrollTop;
    const first = virtualizer.getVirtualItemForOffset(top);
    anchor = first ? { key: first.key as string, delta: top - first.start } : undefined;
  }
  createEffect(
    on(keys, (next, prev) => {
      if (!prev || prev.length === 0 || next[0] === prev[0] || untrack(atEnd) || !anchor) return;
      const index = next.indexOf(anchor.key);
      if (index < 0) return;
      virtualizer.getVirtualItemForOffset(0); // brings `measurementsCache` up to date with the new rows
      const start = virtualizer.measurementsCache[index]?.start;
      if (start !== undefined) options.scroller().scrollTop = start + anchor.delta;
    }),
  );

  return {
    loading,
    failed,
    retry: () => void ((ids()?.length ?? 0) === 0 ? loadNewest() : loadOlder()),
    loadNewest,
    loadOlder,
    onScroll: () => {
      rememberAnchor();
      maybeLoadOlder();
    },
    forgetPlace: () => (anchor = undefined),
  };
}
