import { createVirtualizer } from '@tanstack/solid-virtual';
import {
  For,
  Show,
  createComputed,
  createEffect,
  createMemo,
  createSignal,
  onCleanup,
  onMount,
  untrack,
} from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { useBottomPin } from './bottomPin';
import { useJumpTo } from './jumpTo';
import { keepFocusThroughMoves, keepFocusedRow, withoutKeptRow } from './focusedRow';
import {
  TAIL_AHEAD,
  createLaneWindow,
  createListedIds,
  laneAgentTs,
  laneMessageIds,
  laneNewest,
  laneRow,
  messagesAtBeginning,
  orphanTurn,
  windowRange,
} from './laneWindow';
import { MessageListContext, useMessageList, type MessageListContextValue } from './listContext';
import { EmptyLane } from './EmptyLane';
import { MessageItem, PendingTurn } from './MessageItem';
import { loadMessageActions } from './MessageActions';
import { loadMarkdown } from './markdownModule';
import { WaitingReply, awaitingReply } from './ThinkingIndicator';
import { createConnectionPause } from './connectionPause';
import { authorName } from './author';
import { useAgentName } from './useAgentName';
import { DEFAULT_AGENT_NAME } from '../status/agentInfo';
import { useOlderPages } from './olderPages';
import { isUnsent } from './deliveryStatus';
import { useLaneShown } from './laneShown';
import { PickerCard } from './PickerCard';
import { showErrorToast } from '../status/toastWrites';
import { useReadMarks } from './readMarks';
import { live } from '../../../store/live';
import { localMessageId } from '../../../store/models/messages';
import { settledPickerPlaces } from '../../../store/models/pickers';
import { dayLabel, startsDay, warmTimeFormats } from './time';
import { useToday } from './today';
import { loadWhenIdle, stepsWhenIdle } from '../../loadWhenIdle';
import { lazyPart } from '../../lazy/lazyPart';
import './MessageList.css';

/**
 * How long a lane whose rows are placed waits for the Markdown pipeline before the head hands over: the
 * head exists only for a browser that has run the app, whose service worker (or HTTP cache) usually holds
 * the pipeline, so mostly a slow CPU makes it wait this long.
 */
const MARKDOWN_WAIT_MS = 1000;

// Asked for only when a person deletes a message.
const loadConfirmDialog = () => import('./ConfirmDialog');
// Kept mounted between deletes: one that cannot be loaded is cancelled, and loads again at the next delete.
const ConfirmDialog = lazyPart(() => loadConfirmDialog().then((m) => m.ConfirmDialog), {
  title: 'Could not open that',
  onUnavailable: (shown) => shown.onCancel(),
  askedAgain: (shown) => shown.open,
});

const TURN_KEY = 'turn:';
const PICKER_KEY = 'picker:';
/** The placeholder reply while the agent works and nothing of its turn is in the list yet. */
const WAITING_KEY = 'waiting:';
const isMessageKey = (key: string) =>
  !key.startsWith(TURN_KEY) && !key.startsWith(PICKER_KEY) && key !== WAITING_KEY && !key.startsWith('missing:');
/** A row not measured yet is assumed this tall (px); placeholders are exactly this tall. */
const ESTIMATE = 96;

/**
 * The conversation of one lane: virtualized (only what is on screen is in the DOM), opens at the newest
 * message, keeps the reader's place while older pages load above and while a reply streams below.
 * Remount it (keyed) for another lane.
 */
export function MessageList(props: {
  lane: string;
  focusId?: string;
  /** The jump to `focusId` is over (landed and settled, or the message is gone). */
  onFocusDone?: () => void;
  /**
   * Whether the list shows the agent's turn (its working bubble, or its reply streaming), from the very
   * rows the list renders: ThinkingIndicator must not repeat it, not even for the frame a separate
   * query of the same rows would take to catch up.
   */
  onTurnShown?: (shown: boolean) => void;
}) {
  const { db, client } = useIris();
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const stored = laneMessageIds(db, props.lane);
  // The ids the list shows: new ones at its end wait for their rows while the list follows the end. The
  // window and its range are made below, from these ids' keys.
  const later: {
    isRead?: (id: string) => boolean;
    following?: () => boolean;
    carriedSize?: (index: number) => number | undefined;
  } = {};
  const ids = createListedIds(
    stored,
    (id) => later.isRead?.(id) ?? true,
    () => later.following?.() ?? false,
  );
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const lane = laneRow(db, props.lane);
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const beginning = messagesAtBeginning(db, props.lane);
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const agentTs = laneAgentTs(db, props.lane);
  // The list starts at the conversation's first message once no older page is left and that page's rows
  // are in the list. Held from then on: a new message, counted there a moment before the list has it,
  // must not make the first line blink.
  const [atStart, setAtStart] = createSignal(false);
  const today = useToday();
  createComputed(() => {
    const count = beginning();
    if (count === undefined) setAtStart(false);
    else if (count <= (ids()?.length ?? 0)) setAtStart(true);
  });
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const orphan = orphanTurn(db, props.lane);
  // Questions the agent asked and their answers stay in the conversation, where they were asked.
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const settled = live(() => settledPickerPlaces(db, props.lane), []);
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  const newest = laneNewest(db, props.lane);
  const agent = useAgentName();
  const agentName = () => agent() ?? DEFAULT_AGENT_NAME;
  // The newest listed row as the window holds it (set once the window exists, below). The newest-message
  // query and the list's own ids and rows are separate live queries that land a moment apart (under load,
  // a frame or more; the list holds new ids until their rows are read): the turn counts as shown once
  // either says it streams, so the line above the composer is never shown together with the reply's
  // bubble. The placeholder row at the list's end follows the listed rows alone: it gives way to the
  // reply's bubble in the same frame, never leaving a frame with neither.
  const [newestListed, setNewestListed] = createSignal<Pick<MessageRow, 'role' | 'status'>>();
  const newestRowStreams = () => newestListed()?.role === 'assistant' && newestListed()?.status === 'streaming';
  const turnShown = () => {
    const message = newest();
    return (
      orphan() !== undefined || (message?.role === 'assistant' && message.status === 'streaming') || newestRowStreams()
    );
  };
  const waiting = () => awaitingReply(lane(), newestListed(), orphan() !== undefined || newestRowStreams());
  const keys = createMemo(() => {
    let list = ids() ?? [];
    const pickers = settled();
    if (pickers.length) {
      list = [...list];
      pickers.forEach((p, i) => list.splice(Math.min(p.after + i, list.length), 0, PICKER_KEY + p.picker_id));
    }
    const turn = orphan();
    if (turn) return [...list, TURN_KEY + turn];
    return waiting() ? [...list, WAITING_KEY] : list;
  });
  /** When each question's card was asked, by its key: a card has a day, as a message has. */
  const askedAt = createMemo(() => new Map(settled().map((p) => [PICKER_KEY + p.picker_id, p.ts])));
  const keyAt = createMemo(() => {
    // eslint-disable-next-line solid/reactivity -- keyAt is a new function whenever keys change; each one reads its own snapshot
    const list = keys();
    return (index: number) => list[index] ?? `missing:${index}`;
  });

  let scroller!: HTMLDivElement;
  let sizer!: HTMLDivElement;
  onMount(() => onCleanup(keepFocusThroughMoves(sizer)));
  const virtualizer = createVirtualizer<HTMLDivElement, HTMLDivElement>({
    get count() {
      return keys().length;
    },
    getScrollElement: () => scroller,
    estimateSize: (index) => later.carriedSize?.(index) ?? ESTIMATE,
    get getItemKey() {
      return keyAt();
    },
    overscan: 6,
    rangeExtractor: keepFocusedRow(
      () => scroller,
      (key) => untrack(keys).indexOf(key),
    ),
    paddingStart: 56,
    paddingEnd: 16,
    // Keeping the reader's place when older pages are prepended, and following the newest message,
    // are done by the hooks below, after the DOM is updated (writing scrollTop before the sizer grows gets clamped).
  });

  const items = () => virtualizer.getVirtualItems();
  const visibleKeys = createMemo(() => items().map((item) => item.key as string));
  const itemByKey = createMemo(() => new Map(items().map((item) => [item.key as string, item])));
  const range = createMemo<[number, number]>(
    () => {
      const list = withoutKeptRow(items());
      const count = keys().length;
      if (list.length === 0) return windowRange(count - 1, count - 1, count);
      return windowRange(list[0]!.index, list[list.length - 1]!.index, count);
    },
    [0, 0],
    { equals: (a, b) => a[0] === b[0] && a[1] === b[1] },
  );
  const pin = useBottomPin({ scroller: () => scroller, totalSize: () => virtualizer.getTotalSize(), keys });
  // A row measured above the view moves the view by its change, to keep the rows on screen still. A
  // reader at the newest message is held there by the pin instead: those moves (four in one frame as a
  // lane with answered questions opened) looked like the reader scrolling up, and let go of the pin.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (untrack(pin.atEnd)) return false;
    // The library's own rule otherwise: a first measure of a row that starts above the view; a row
    // measured again only when it is wholly above it, and not while scrolling up.
    const offset = instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key)
      ? item.end <= offset && instance.scrollDirection !== 'backward'
      : item.start < offset;
  };
  // The list follows its end (or the window reaches it): the window reads the newest ids ahead, so new
  // ones are listed with their rows. Not the range alone: in the frame a burst is listed, the rows on
  // screen are still the old end's, and the range has not followed yet.
  const following = createMemo(() => pin.atEnd() || range()[1] >= keys().length);
  later.following = following;
  const win = createLaneWindow(
    db,
    () => stored() ?? [],
    range,
    orphan,
    () => (following() ? TAIL_AHEAD : 0),
  );
  later.isRead = (id) => win.rows[id] !== undefined;
  // The echo that replaces your pending bubble starts at the bubble's measured height. Estimated, the row
  // below (the reply starting) overlapped it for a frame and the list moved.
  // Only the newest rows can be an echo: the virtualizer asks this of every unmeasured row (10,000 in a long lane).
  later.carriedSize = (index) => {
    const list = untrack(keys);
    if (index < list.length - TAIL_AHEAD) return undefined;
    const clientId = untrack(() => win.rows[list[index] ?? '']?.client_id);
    return clientId ? virtualizer.itemSizeCache.get(localMessageId(clientId)) : undefined;
  };
  createComputed(() => {
    const list = ids();
    const row = list?.length ? win.rows[list[list.length - 1]!] : undefined;
    const head = row && { role: row.role, status: row.status };
    setNewestListed((was) => (was?.role === head?.role && was?.status === head?.status ? was : head));
  });
  createComputed(() => props.onTurnShown?.(turnShown()));

  // The reader is placed once they are at the newest message (or at the one asked for): paging and read
  // marks wait for it, so the first frames (rows at the top) neither load pages nor mark anything read.
  const [ready, setReady] = createSignal(false);
  createEffect(() => {
    if (!ready() && ids() !== undefined && keys().length > 0 && pin.atEnd()) setReady(true);
  });
  // Once the rows on screen are placed and read (the newest at the bottom, or the one asked for), or the
  // lane has none: the lane head over the list (Root.tsx) hands over to it then, not before.
  const shown = useLaneShown();
  // Opened at a message (a search result, a notification): placed once that message is; the route drops
  // the message once the jump is over, so this is read once, as the list opens.
  const openedAtMessage = untrack(() => props.focusId !== undefined);
  let told = false;
  // Nor before the rows show their Markdown (or MARKDOWN_WAIT_MS has passed with the rows placed): a lane
  // opened at start then restyles once, from the head's plain text to the messages, not a second time a
  // frame or four later (bold, lists, spacing). Two frames after the pipeline arrives: the rows have been
  // rendered again and measured.
  const [styled, setStyled] = createSignal(false);
  let styling = false;
  createEffect(() => {
    // Asked only with rows to style: a lane opened empty loads the pipeline when idle (below).
    if (styling || keys().length === 0) return;
    styling = true;
    loadMarkdown().then(
      () => requestAnimationFrame(() => requestAnimationFrame(() => setStyled(true))),
      () => setStyled(true), // shown plain (markdownModule.ts); nothing to wait for
    );
  });
  let styleWait: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(styleWait));
  createEffect(() => {
    if (told || ids() === undefined) return;
    const list = keys();
    const onScreen = visibleKeys();
    const placed =
      list.length === 0 ||
      (ready() &&
        onScreen.length > 0 &&
        (openedAtMessage || onScreen.includes(list[list.length - 1]!)) &&
        onScreen.every((key) => !isMessageKey(key) || win.rows[key] !== undefined));
    if (!placed) return;
    if (list.length > 0 && !styled()) {
      styleWait ??= setTimeout(() => setStyled(true), MARKDOWN_WAIT_MS);
      return;
    }
    told = true;
    shown(props.lane);
  });
  // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
  useReadMarks({ lane: props.lane, client, ids, row: (id) => win.rows[id], atEnd: pin.atEnd, ready });
  const pages = useOlderPages({
    // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
    lane: props.lane,
    client,
    scroller: () => scroller,
    virtualizer,
    ids,
    keys,
    laneRow: lane,
    atEnd: pin.atEnd,
    ready,
  });
  const jump = useJumpTo({
    focusId: () => props.focusId,
    scroller: () => scroller,
    virtualizer,
    ids,
    keys,
    laneRow: lane,
    beginning,
    pages,
    leaveBottom: pin.leave,
    placed: () => setReady(true),
    settled: pin.measure,
    focusDone: () => props.onFocusDone?.(),
  });
  const onScroll = () => {
    pin.measure();
    pages.onScroll();
  };

  /** The button goes once the list is at its end: the focus it held stays in the list, not on the page's body. */
  const jumpToLatest = (event: MouseEvent & { currentTarget: HTMLButtonElement }) => {
    const hadFocus = document.activeElement === event.currentTarget;
    pin.scrollToNewest();
    if (hadFocus) scroller.focus({ preventScroll: true });
  };

  // ---- delete with confirm ---------------------------------------------------------------------
  const [toDelete, setToDelete] = createSignal<MessageRow>();
  const [askedDelete, setAskedDelete] = createSignal(false);
  const [deleteBody, setDeleteBody] = createSignal('');
  onMount(() => {
    // The Markdown pipeline and the time formats have first-use costs (loading and compiling marked,
    // the locale's data) that a lane opened empty would pay in one long task with its first message.
    loadWhenIdle([loadMessageActions, loadConfirmDialog, loadMarkdown]);
    stepsWhenIdle(warmTimeFormats);
  });
  const confirmDelete = () => {
    const message = toDelete();
    setToDelete(undefined);
    if (message)
      void Promise.resolve(client.deleteMessages(props.lane, [message.message_id])).catch((error: unknown) =>
        showErrorToast(db, 'Could not delete the message', error),
      );
    scroller.focus({ preventScroll: true });
  };

  const [openParts, setOpenParts] = createSignal<ReadonlySet<string>>(new Set());
  /**
   * The row listed before `index`, with its time (a message's, or a card's asking; unknown while the
   * message loads), or undefined for the first row: the day's line above a row compares their days.
   */
  const rowBefore = (index: number): { ts: number | undefined } | undefined => {
    const key = keys()[index - 1];
    if (key === undefined) return undefined;
    return { ts: key.startsWith(PICKER_KEY) ? askedAt().get(key) : win.rows[key]?.ts };
  };

  const context: MessageListContextValue = {
    // eslint-disable-next-line solid/reactivity -- LaneView is keyed on the lane: the lane never changes under a mounted component
    lane: props.lane,
    win,
    agentName,
    highlighted: jump.highlighted,
    agentTs,
    today,
    atStart,
    turnClosed: (turn) => {
      const row = lane();
      if (!row || row.turn === turn) return false;
      // Turn ids are `${lane}#${seq}` (store/schema.ts): a lane row that has not caught up with this
      // turn yet (it lags a moment behind the activity rows) must not call it closed.
      const seq = Number(turn.slice(turn.lastIndexOf('#') + 1));
      return Number.isFinite(seq) && row.turnSeq >= seq;
    },
    jumpTo: jump.jumpTo,
    isOpen: (key) => openParts().has(key),
    toggleOpen: (key) =>
      setOpenParts((prev) => {
        const next = new Set(prev);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    requestDelete: (message) => {
      setAskedDelete(true);
      setDeleteBody(deleteWords(message));
      setToDelete(message);
    },
    // The virtualizer moves the view only for rows wholly above it: one growing at its bottom does not.
    holdPlace: () => pin.leave(),
    paused: createConnectionPause(client.state),
  };

  return (
    <MessageListContext.Provider value={context}>
      <div class="msg-list">
        <div ref={scroller} class="msg-scroller" role="log" aria-label="Messages" tabindex="0" onScroll={onScroll}>
          <div ref={sizer} class="msg-sizer" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            <div class="msg-start">
              <Show
                when={atStart()}
                fallback={
                  <Show
                    when={pages.loading()}
                    fallback={
                      <Show when={pages.failed()}>
                        <span class="msg-failed">
                          {keys().length > 0 ? 'Older messages' : 'Messages'} could not be loaded.{' '}
                          <button type="button" class="link-button" onClick={() => pages.retry()}>
                            Try again
                          </button>
                        </span>
                      </Show>
                    }
                  >
                    <span class="msg-loading">
                      {keys().length > 0 ? 'Loading older messages…' : 'Loading messages…'}
                    </span>
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
                    <Show when={!key.startsWith(TURN_KEY)} fallback={<PendingTurn turn={key.slice(TURN_KEY.length)} />}>
                      <Show
                        when={!key.startsWith(PICKER_KEY)}
                        fallback={
                          <>
                            <DayLine ts={askedAt().get(key)} before={rowBefore(item()?.index ?? 0)} />
                            <PickerCard pickerId={key.slice(PICKER_KEY.length)} />
                          </>
                        }
                      >
                        <Show
                          when={key !== WAITING_KEY}
                          fallback={
                            <Show when={lane()}>
                              {(row) => (
                                <WaitingReply
                                  lane={row()}
                                  author={authorName('assistant', agentName())}
                                  paused={context.paused()}
                                />
                              )}
                            </Show>
                          }
                        >
                          <Row id={key} before={rowBefore(item()?.index ?? 0)} />
                        </Show>
                      </Show>
                    </Show>
                  </div>
                );
              }}
            </For>
          </div>
        </div>
        {/* Up in the history, the way down is one tap; a message arriving meanwhile says so on it. */}
        <Show when={pin.unseen() || (ready() && !pin.atEnd())}>
          <button type="button" class="jump-latest" classList={{ unseen: pin.unseen() }} onClick={jumpToLatest}>
            <Show when={pin.unseen()} fallback={<span class="visually-hidden">Jump to latest</span>}>
              <span>New messages</span>
              <span class="visually-hidden">, jump to latest</span>
            </Show>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                fill="none"
                stroke="currentColor"
                stroke-width="2"
                stroke-linecap="round"
                stroke-linejoin="round"
                d="M12 5v14M6 13l6 6 6-6"
              />
            </svg>
          </button>
        </Show>
        {/* Once the agent's name is read, so the greeting does not change its words under the reader. */}
        <Show when={ids()?.length === 0 && keys().length === 0 && lane()?.hasMore === false && agent() !== undefined}>
          <EmptyLane lane={props.lane} />
        </Show>
        <Show when={jump.notice()}>
          <p class="msg-notice-bar" role="alert">
            {jump.notice()}
            <button type="button" class="link-button" onClick={jump.dismissNotice}>
              Dismiss
            </button>
          </p>
        </Show>
      </div>
      {/* Loaded when a delete is first asked for, then kept (closing it returns focus as a <dialog> does). */}
      <Show when={askedDelete()}>
        <ConfirmDialog
          open={!!toDelete()}
          title="Delete this message?"
          body={deleteBody()}
          confirmLabel="Delete"
          danger
          onConfirm={confirmDelete}
          onCancel={() => setToDelete(undefined)}
        />
      </Show>
    </MessageListContext.Provider>
  );
}

/** What deleting `message` does: a stored one goes on every device; one of mine not sent yet is not sent. */
function deleteWords(message: MessageRow): string {
  if (!isUnsent(message)) return 'It will be deleted for you on all your devices.';
  if (message.status === 'failed') return 'It was not sent. It will be deleted from this device.';
  // A send the gateway did not answer (its words are on the bubble) may have reached it all the same.
  if (message.error)
    return 'It will not be sent again, and is deleted from this device. If the gateway received it already, it will still appear.';
  return 'It has not been sent yet. It will not be sent, and is deleted from this device.';
}

/** The day's line above a row of the conversation, when it starts a day (time.ts's startsDay). */
function DayLine(props: { ts: number | undefined; before: { ts: number | undefined } | undefined }) {
  const list = useMessageList();
  const label = () =>
    props.ts !== undefined && startsDay(props.ts, props.before, list.atStart())
      ? dayLabel(props.ts, list.today())
      : undefined;
  return (
    <Show when={label()}>
      <div class="day-sep">
        <span>{label()}</span>
      </div>
    </Show>
  );
}

/** One message row: a day separator when the day changes, then the message (or a placeholder). */
function Row(props: { id: string; before: { ts: number | undefined } | undefined }) {
  const list = useMessageList();
  // The last read row while the id is still listed: the pending bubble whose echo just replaced it in the
  // DB stays on screen until the list swaps it for the echo (listed once its row is read), not blank between.
  const message = createMemo<MessageRow | undefined>((last) => list.win.rows[props.id] ?? last);
  return (
    <Show when={message()} fallback={<div class="msg-placeholder" aria-hidden="true" />}>
      {(m) => (
        <>
          <DayLine ts={m().ts} before={props.before} />
          <MessageItem message={m()} />
        </>
      )}
    </Show>
  );
}
