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
   * The last page asked for failed at the gateway (an error, or no answer) and none landed since (a live
   * message is no page), as the session records it on the lane: the list says so where messages would
   * appear, or a lane whose history fails stays blank. Not while offline (the banner says that; pages
   * load when back).
   */
  failed: Accessor<boolean>;
  /** Asks for the page again now (the person's Try again): the newest of an empty lane, else the one before. */
  retry(): void;
  /** Fetches the page before the oldest stored message; false if it failed. */
  loadOlder(): Promise<boolean>;
  /** On every scroll: remember the reader's place, and fetch a page if they are near the top. */
  onScroll(): void;
  /** The reader was moved elsewhere (a jump): a page landing next must not put them back at their old place. */
  forgetPlace(): void;
}

export function useOlderPages(options: {
  lane: string;
  client: Pick<IrisClient, 'loadOlder' | 'loadNewest' | 'state'>;
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
  let failedAt = 0;
  /** One page at a time; false if it failed (its failure is on the lane row, from the session). */
  const ask = async (fetch: () => Promise<unknown>): Promise<boolean> => {
    if (loading()) return true;
    setLoading(true);
    try {
      await fetch();
      return true;
    } catch {
      failedAt = Date.now();
      return false;
    } finally {
      setLoading(false);
    }
  };
  const loadOlder = () => ask(() => client.loadOlder(options.lane));
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
    failed: () => laneRow()?.historyFailed === true && client.state() === 'online',
    retry: () => void ((ids()?.length ?? 0) === 0 ? ask(() => client.loadNewest(options.lane)) : loadOlder()),
    loadOlder,
    onScroll: () => {
      rememberAnchor();
      maybeLoadOlder();
    },
    forgetPlace: () => (anchor = undefined),
  };
}
