import { createVirtualizer } from '@tanstack/solid-virtual';
import {
  For,
  Show,
  createEffect,
  createMemo,
  createSignal,
  on,
  onCleanup,
  onMount,
  untrack,
} from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { iris } from '../../context';
import { ConfirmDialog } from './ConfirmDialog';
import { createLaneWindow, laneMessageIds, laneRow, orphanTurn, windowRange } from './laneWindow';
import { MessageListContext, useMessageList, type MessageListContextValue } from './listContext';
import { EmptyLane } from './EmptyLane';
import { MessageItem, PendingTurn } from './MessageItem';
import { PickerCard } from './PickerCard';
import { showErrorToast } from '../status/toastWrites';
import { live } from '../../../store/live';
import { settledPickerPlaces } from '../../../store/models/pickers';
import { dayLabel, sameDay } from './time';
import './MessageList.css';

const TURN_KEY = 'turn:';
const PICKER_KEY = 'picker:';
/** A row not measured yet is assumed this tall (px); placeholders are exactly this tall. */
const ESTIMATE = 96;
/** Within this many px of the bottom counts as "at the newest message". */
const AT_END_PX = 80;
const HIGHLIGHT_MS = 5000;

/**
 * The conversation of one lane: virtualized (only what is on screen is in the DOM), opens at the newest
 * message, keeps the reader's place while older pages load above and while a reply streams below.
 * Remount it (keyed) for another lane.
 */
export function MessageList(props: { lane: string; focusId?: string }) {
  const { db, client } = iris();
  const ids = laneMessageIds(db, props.lane);
  const lane = laneRow(db, props.lane);
  const orphan = orphanTurn(db, props.lane);
  // Questions the agent asked and their answers stay in the conversation, where they were asked.
  const settled = live(() => settledPickerPlaces(db, props.lane), []);
  const keys = createMemo(() => {
    let list = ids() ?? [];
    const pickers = settled();
    if (pickers.length) {
      list = [...list];
      pickers.forEach((p, i) => list.splice(Math.min(p.after + i, list.length), 0, PICKER_KEY + p.picker_id));
    }
    const turn = orphan();
    return turn ? [...list, TURN_KEY + turn] : list;
  });
  const keyAt = createMemo(() => {
    const list = keys();
    return (index: number) => list[index] ?? `missing:${index}`;
  });

  let scroller!: HTMLDivElement;
  const virtualizer = createVirtualizer<HTMLDivElement, HTMLDivElement>({
    get count() {
      return keys().length;
    },
    getScrollElement: () => scroller,
    estimateSize: () => ESTIMATE,
    get getItemKey() {
      return keyAt();
    },
    overscan: 6,
    paddingStart: 56,
    paddingEnd: 16,
    // Keeping the reader's place when older pages are prepended, and following the newest message,
    // are done below, after the DOM is updated (writing scrollTop before the sizer grows gets clamped).
  });

  const items = () => virtualizer.getVirtualItems();
  const visibleKeys = createMemo(() => items().map((item) => item.key as string));
  const itemByKey = createMemo(() => new Map(items().map((item) => [item.key as string, item])));
  const range = createMemo<[number, number]>(
    () => {
      const list = items();
      const count = keys().length;
      if (list.length === 0) return windowRange(count - 1, count - 1, count);
      return windowRange(list[0]!.index, list[list.length - 1]!.index, count);
    },
    [0, 0],
    { equals: (a, b) => a[0] === b[0] && a[1] === b[1] },
  );
  const win = createLaneWindow(db, () => ids() ?? [], range, orphan);

  // ---- where the reader is -------------------------------------------------------------------
  const [atEnd, setAtEnd] = createSignal(true);
  const [ready, setReady] = createSignal(false);
  const [unseen, setUnseen] = createSignal(false);
  const [pageVisible, setPageVisible] = createSignal(document.visibilityState === 'visible');
  let lastScrollTop = 0;
  /**
   * Near the bottom: at the end. Away from it, only a move up means the reader left: a reply growing
   * below (by more than AT_END_PX between our pin and its scroll event) must not stop the following.
   */
  const measureAtEnd = () => {
    const top = scroller.scrollTop;
    const distance = scroller.scrollHeight - top - scroller.clientHeight;
    if (distance < AT_END_PX) setAtEnd(true);
    else if (top < lastScrollTop - 1) setAtEnd(false);
    lastScrollTop = top;
  };
  const onVisibility = () => setPageVisible(document.visibilityState === 'visible');
  /** Puts the newest message at the bottom of the viewport. */
  const pinToBottom = () => {
    scroller.scrollTop = scroller.scrollHeight;
    // Our own move: the reader's next scroll (maybe in this same frame) is judged from here.
    lastScrollTop = scroller.scrollTop;
  };
  onMount(() => {
    document.addEventListener('visibilitychange', onVisibility);
    // The viewport changed size (keyboard, composer growing): a reader at the bottom stays there.
    const resize = new ResizeObserver(() => (untrack(atEnd) ? pinToBottom() : measureAtEnd()));
    resize.observe(scroller);
    onCleanup(() => {
      document.removeEventListener('visibilitychange', onVisibility);
      resize.disconnect();
    });
  });

  const scrollToNewest = () => {
    setAtEnd(true);
    pinToBottom();
    setUnseen(false);
  };

  // A reader at the bottom stays there while rows arrive, stream and get measured. Effects run after the
  // DOM is updated, so scrollHeight already includes the new size.
  createEffect(() => {
    virtualizer.getTotalSize();
    keys();
    if (untrack(atEnd)) pinToBottom();
  });

  // Open at the newest message (the bottom pin above), or at the message asked for.
  let opened = false;
  createEffect(() => {
    if (ids() === undefined || opened) return;
    opened = true;
    untrack(() => {
      if (props.focusId) jumpTo(props.focusId);
    });
  });
  // Paging starts once the reader has been placed, so the first frames (rows at the top) do not load pages.
  createEffect(() => {
    if (!ready() && ids() !== undefined && keys().length > 0 && atEnd()) setReady(true);
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

  // The newest message seen while the page is visible: tell the gateway (and the other devices).
  let markedFor: string | undefined;
  createEffect(() => {
    const list = ids();
    const newest = list?.[list.length - 1];
    if (!newest || !atEnd() || !pageVisible() || !ready()) {
      // No longer on the newest message: a reply it was following counts as unread once it ends.
      if (markedFor !== undefined) void Promise.resolve(client.stopReading(props.lane)).catch((err: unknown) => console.warn('iris: could not stop following the reply', err));
      markedFor = undefined;
      return;
    }
    // A streamed reply gets its final time at the end: mark again then.
    const row = win.rows[newest];
    const mark = `${newest}:${row?.ts}:${row?.status}`;
    if (mark === markedFor) return;
    markedFor = mark;
    void Promise.resolve(client.markRead(props.lane)).catch((err: unknown) => console.warn('iris: could not mark the lane read', err));
  });

  onCleanup(() => void Promise.resolve(client.stopReading(props.lane)).catch((err: unknown) => console.warn('iris: could not stop following the reply', err)));

  // ---- older history ---------------------------------------------------------------------------
  const [loadingOlder, setLoadingOlder] = createSignal(false);
  let olderFailedAt = 0;
  const loadOlder = async (): Promise<void> => {
    if (loadingOlder()) return;
    setLoadingOlder(true);
    try {
      await client.loadOlder(props.lane);
    } catch {
      olderFailedAt = Date.now();
    } finally {
      setLoadingOlder(false);
    }
  };
  /**
   * Older history is asked for when the reader is within a screen of the top. Decided on scroll (and
   * once placed), not on every render: right after a page is prepended the rows briefly sit at the
   * top before the reader's anchor is restored, and that must not fetch yet another page.
   */
  const maybeLoadOlder = () => {
    if (!ready() || loadingOlder() || lane()?.hasMore === false) return;
    if (Date.now() - olderFailedAt < 3000) return;
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
  const onScroll = () => {
    measureAtEnd();
    rememberAnchor();
    maybeLoadOlder();
  };

  // ---- keeping the reader's place when older messages are prepended --------------------------
  /** The first row on screen and how far the viewport's top is below that row's top. */
  let anchor: { key: string; delta: number } | undefined;
  function rememberAnchor() {
    const top = scroller.scrollTop;
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
      if (start !== undefined) scroller.scrollTop = start + anchor.delta;
    }),
  );

  // ---- jumping to a message (search result, quote) ---------------------------------------------
  const [jumpTarget, setJumpTarget] = createSignal<string>();
  const [jumpTick, setJumpTick] = createSignal(0);
  const [highlighted, setHighlighted] = createSignal<string>();
  const [notice, setNotice] = createSignal<string>();
  let highlightTimer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(highlightTimer));

  let lastLook = false;
  function jumpTo(messageId: string) {
    lastLook = false;
    setNotice(undefined);
    setJumpTarget(messageId);
  }

  createEffect(() => {
    const target = jumpTarget();
    jumpTick();
    if (!target) return;
    const index = keys().indexOf(target);
    const hasMore = lane()?.hasMore;
    const busy = loadingOlder();
    untrack(() => {
      if (index >= 0) {
        setJumpTarget(undefined);
        // Leaving the bottom: the pin must not pull the reader back while the rows get measured.
        setAtEnd(false);
        virtualizer.scrollToIndex(index, { align: 'center' });
        centreWhenMeasured(target);
        setHighlighted(target);
        clearTimeout(highlightTimer);
        highlightTimer = setTimeout(() => setHighlighted(undefined), HIGHLIGHT_MS);
        focusMessage(target);
        setReady(true);
        return;
      }
      if (hasMore === false) {
        // The lane's paging state can land before the page's rows reach the list: look once more.
        if (!lastLook) {
          lastLook = true;
          setTimeout(() => setJumpTick((t) => t + 1), 500);
          return;
        }
        setJumpTarget(undefined);
        setNotice('That message is no longer in this conversation.');
        return;
      }
      if (busy) return;
      void loadOlder().then(() => {
        if (Date.now() - olderFailedAt < 100) {
          setJumpTarget(undefined);
          setNotice('Could not load older messages to find that one.');
        } else setJumpTick((t) => t + 1);
      });
    });
  });
  createEffect(
    on(
      () => props.focusId,
      (id) => id && opened && jumpTo(id),
      { defer: true },
    ),
  );

  /**
   * scrollToIndex centres on estimated row heights; as the rows around the target get measured it
   * drifts (on a phone, out of view behind the composer). Re-centre on the real row until it holds
   * still for a few frames, or the reader scrolls.
   */
  function centreWhenMeasured(messageId: string) {
    let frames = 0;
    let still = 0;
    let cancelled = false;
    const cancel = () => (cancelled = true);
    const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const type of events) scroller.addEventListener(type, cancel, { once: true, passive: true });
    const step = () => {
      const el = scroller.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
      if (cancelled || frames++ > 90 || still >= 4) {
        for (const type of events) scroller.removeEventListener(type, cancel);
        return;
      }
      if (el) {
        const view = scroller.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        // A message taller than the view starts at its top instead.
        const delta = box.height > view.height - 16 ? box.top - view.top - 8 : box.top + box.height / 2 - (view.top + view.height / 2);
        if (Math.abs(delta) > 2) {
          scroller.scrollTop += delta;
          still = 0;
        } else still++;
      }
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  /** Moves keyboard focus to a message once the virtualizer has rendered it. */
  function focusMessage(messageId: string, tries = 20) {
    requestAnimationFrame(() => {
      const el = scroller.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
      if (el) el.focus({ preventScroll: true });
      else if (tries > 0) setTimeout(() => focusMessage(messageId, tries - 1), 50);
    });
  }

  // ---- delete with confirm ---------------------------------------------------------------------
  const [toDelete, setToDelete] = createSignal<MessageRow>();
  const confirmDelete = () => {
    const message = toDelete();
    setToDelete(undefined);
    if (message) void Promise.resolve(client.deleteMessages(props.lane, [message.message_id])).catch((error: unknown) => showErrorToast(db, 'Could not delete the message', error));
    scroller.focus({ preventScroll: true });
  };

  const [openParts, setOpenParts] = createSignal<ReadonlySet<string>>(new Set());
  const context: MessageListContextValue = {
    lane: props.lane,
    win,
    highlighted,
    atStart: () => lane()?.hasMore === false,
    turnClosed: (turn) => {
      const row = lane();
      if (!row || row.turn === turn) return false;
      // Turn ids are `${lane}#${seq}` (store/schema.ts): a lane row that has not caught up with this
      // turn yet (it lags a moment behind the activity rows) must not call it closed.
      const seq = Number(turn.slice(turn.lastIndexOf('#') + 1));
      return Number.isFinite(seq) && row.turnSeq >= seq;
    },
    jumpTo,
    isOpen: (key) => openParts().has(key),
    toggleOpen: (key) =>
      setOpenParts((prev) => {
        const next = new Set(prev);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    requestDelete: (message) => setToDelete(message),
  };

  return (
    <MessageListContext.Provider value={context}>
      <div class="msg-list">
        <div
          ref={scroller}
          class="msg-scroller"
          role="log"
          aria-label="Messages"
          tabindex="0"
          onScroll={onScroll}
        >
          <div class="msg-sizer" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            <div class="msg-start">
              <Show
                when={lane()?.hasMore === false}
                fallback={
                  <Show when={loadingOlder()}>
                    <span class="msg-loading">Loading older messages…</span>
                  </Show>
                }
              >
                <Show when={keys().length > 0}>
                  <span>This is the beginning of the conversation.</span>
                </Show>
              </Show>
            </div>
            <For each={visibleKeys()}>
              {(key) => {
                const item = () => itemByKey().get(key);
                return (
                  <div
                    class="vrow"
                    data-index={item()?.index}
                    data-key={key}
                    ref={(el) => queueMicrotask(() => el.isConnected && virtualizer.measureElement(el))}
                    style={{ transform: `translateY(${item()?.start ?? 0}px)` }}
                  >
                    <Show
                      when={!key.startsWith(TURN_KEY)}
                      fallback={<PendingTurn turn={key.slice(TURN_KEY.length)} />}
                    >
                      <Show when={!key.startsWith(PICKER_KEY)} fallback={<PickerCard pickerId={key.slice(PICKER_KEY.length)} />}>
                        <Row id={key} prevId={keys()[(item()?.index ?? 0) - 1]} />
                      </Show>
                    </Show>
                  </div>
                );
              }}
            </For>
          </div>
        </div>
        {/* Up in the history, the way down is one tap; a message arriving meanwhile says so on it. */}
        <Show when={unseen() || (ready() && !atEnd())}>
          <button type="button" class="jump-latest" classList={{ unseen: unseen() }} onClick={scrollToNewest}>
            <Show when={unseen()} fallback={<span class="visually-hidden">Jump to latest</span>}>
              <span>New messages</span>
              <span class="visually-hidden">, jump to latest</span>
            </Show>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="M12 5v14M6 13l6 6 6-6" />
            </svg>
          </button>
        </Show>
        <Show when={ids()?.length === 0 && keys().length === 0 && lane()?.hasMore === false}>
          <EmptyLane lane={props.lane} />
        </Show>
        <Show when={notice()}>
          <p class="msg-notice-bar" role="alert">
            {notice()}
            <button type="button" class="link-button" onClick={() => setNotice(undefined)}>
              Dismiss
            </button>
          </p>
        </Show>
      </div>
      <ConfirmDialog
        open={!!toDelete()}
        title="Delete this message?"
        body="It will be deleted for you on all your devices."
        confirmLabel="Delete"
        danger
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(undefined)}
      />
    </MessageListContext.Provider>
  );
}

/** One message row: a day separator when the day changes, then the message (or a placeholder). */
function Row(props: { id: string; prevId: string | undefined }) {
  const list = useMessageList();
  const message = () => list.win.rows[props.id];
  const day = createMemo(() => {
    const current = message();
    if (!current) return undefined;
    // The first loaded row: label its day only once no older page can arrive to put a row above it.
    if (props.prevId === undefined) return list.atStart() ? dayLabel(current.ts) : undefined;
    const prev = list.win.rows[props.prevId];
    return prev && !sameDay(prev.ts, current.ts) ? dayLabel(current.ts) : undefined;
  });
  return (
    <Show when={message()} fallback={<div class="msg-placeholder" aria-hidden="true" />}>
      {(m) => (
        <>
          <Show when={day()}>
            <div class="day-sep">
              <span>{day()}</span>
            </div>
          </Show>
          <MessageItem message={m()} />
        </>
      )}
    </Show>
  );
}
