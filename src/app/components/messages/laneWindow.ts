// The lane's messages as the list needs them: every message id in time order (cheap: keys only, from the
// [lane+ts] index), and the full rows of a window around what is on screen. The window is the only
// copy of message rows in memory; it follows the scroll position and the DB (through live()).
import { batch, createComputed, createMemo, createSignal, mapArray, onCleanup, untrack, type Accessor } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import { live, liveOn, liveShared } from '../../../store/live';
import type { IrisDB } from '../../../store/db';
import { activityOfTurns, orphanTurn as findOrphanTurn } from '../../../store/models/activity';
import { storedLane } from '../../../store/models/lanes';
import {
  getMessages,
  newestAgentTs,
  newestHead,
  laneMessageIds as storedMessageIds,
  type MessageHead,
} from '../../../store/models/messages';
import { getMediaRows } from '../../../store/models/media';
import type { ActivityRow, LaneRow, MediaRow, MessageRow } from '../../../store/schema';

/** Rows kept on each side of the visible range, so a scroll step rarely waits for the DB. */
const MARGIN = 40;
/** Window edges snap to this step, so small scrolls do not re-query. */
const STEP = 25;
/**
 * Newest rows read ahead while the window reaches the list's end: more than a tall screen of short
 * messages, so a burst the list follows down lands with every row it shows already read.
 */
export const TAIL_AHEAD = MARGIN;
/** A tail whose rows cannot be read (a failing query) is listed anyway after this long, blank. */
const TAIL_HOLD_MS = 2000;

export interface LaneWindow {
  rows: Record<string, MessageRow | undefined>;
  /** Activity (tool cards, commentary) per turn, oldest first. */
  activity: Record<string, ActivityRow[] | undefined>;
  /**
   * The stored rows of the window's attachments, by media id, read with their messages: a picture's box
   * is drawn at its size from the message's first frame (read later, the list moved when it came).
   */
  media: Record<string, MediaRow | undefined>;
}

export function laneMessageIds(db: IrisDB, lane: string): Accessor<string[] | undefined> {
  return live(() => storedMessageIds(db, lane));
}

/** The lane's row (paging, busy), one live query shared by every part of the lane's screen. */
export function laneRow(db: IrisDB, lane: string): Accessor<LaneRow | undefined> {
  return liveShared(db, `lane ${lane}`, () => storedLane(db, lane));
}

/**
 * The lane's newest message as far as its head (id, role, status), one live query shared by every part
 * of the lane's screen; a reply's stored writes do not make it read the streaming row again.
 */
export function laneNewest(db: IrisDB, lane: string): Accessor<MessageHead | undefined> {
  return liveShared(db, `newest ${lane}`, () => newestHead(db, lane));
}

/** When the agent last wrote in the lane (newestAgentTs), one live query shared by the lane's screen. */
export function laneAgentTs(db: IrisDB, lane: string): Accessor<number | undefined> {
  return liveShared(db, `agent ts ${lane}`, () => newestAgentTs(db, lane));
}

/**
 * How many messages the lane holds once its first message is stored (no older page left), else undefined.
 * Read in one transaction with the paging state: the ids above are a separate query, which can land a
 * moment after the page that reached the beginning.
 */
export function messagesAtBeginning(db: IrisDB, lane: string): Accessor<number | undefined> {
  return live(() =>
    db.transaction('r', db.lanes, db.messages, async () =>
      (await storedLane(db, lane))?.hasMore === false ? (await storedMessageIds(db, lane)).length : undefined,
    ),
  );
}

/**
 * The turn in progress whose activity has no assistant message yet: its cards show at the lane's end.
 */
export function orphanTurn(db: IrisDB, lane: string): Accessor<string | undefined> {
  return live(() => findOrphanTurn(db, lane));
}

export function windowRange(first: number, last: number, count: number): [number, number] {
  const start = Math.max(0, Math.floor((first - MARGIN) / STEP) * STEP);
  const end = Math.min(count, Math.ceil((last + 1 + MARGIN) / STEP) * STEP);
  return [start, Math.max(start, end)];
}

/**
 * Keeps `store` filled with the rows of `ids[range]`, and of the newest `tail()` ids, and the activity
 * of their turns (plus `extraTurn`). Must run inside a reactive owner.
 */
export function createLaneWindow(
  db: IrisDB,
  ids: Accessor<string[]>,
  range: Accessor<[number, number]>,
  extraTurn: Accessor<string | undefined>,
  tail: Accessor<number> = () => 0,
): LaneWindow {
  const [store, setStore] = createStore<LaneWindow>({ rows: {}, activity: {}, media: {} });
  // The window in blocks of STEP ids, cut at fixed places: a scroll step adds a block and drops one,
  // and only the new one is read (each block is its own live query). Reading the whole window again on
  // every step re-read (and re-compared) a hundred rows, whole-file answers among them, a few times a second.
  const blocks = createMemo(
    () => {
      const [start, end] = range();
      const list = ids();
      const out: string[] = [];
      const cut = (from: number, last: number) => {
        for (; from < last;) {
          const to = Math.min(last, (Math.floor(from / STEP) + 1) * STEP);
          out.push(list.slice(from, to).join('\n'));
          from = to;
        }
      };
      const last = Math.min(end, list.length);
      cut(start, last);
      // The newest ids, past what the range covers (from a block boundary, so the blocks do not overlap).
      const ahead = tail();
      if (ahead > 0) cut(Math.max(last, Math.floor((list.length - ahead) / STEP) * STEP), list.length);
      return out;
    },
    [],
    { equals: (a, b) => a.length === b.length && a.every((key, i) => key === b[i]) },
  );
  const reads = mapArray(blocks, (key) => {
    const wanted = key.split('\n');
    return live(async () => {
      const rows = (await getMessages(db, wanted)).filter((r): r is MessageRow => !!r);
      const turns = new Set<string>();
      for (const r of rows) if (r.turn) turns.add(r.turn);
      const files = rows.flatMap((r) => r.media?.map((item) => item.media_id) ?? []);
      const [activity, media] = await Promise.all([
        activityOfTurns(db, [...turns]),
        files.length
          ? getMediaRows(db, files).catch((error: unknown) => {
              console.warn('iris: could not read the files of a page of messages', error);
              return {}; // each file then shows as offered (how to fetch it), and the messages still show
            })
          : {},
      ]);
      return { rows, activity, media };
    });
  });
  const extra = liveOn(extraTurn, (turn) => (turn ? activityOfTurns(db, [turn]) : []), undefined);
  /** The row objects the store was last given, by id (a block not read again gives the same objects). */
  let given: Record<string, MessageRow> = {};
  let givenMedia: Record<string, MediaRow> = {};

  createComputed(() => {
    const values = reads().map((read) => read());
    const extraActivity = extra();
    // Until the new blocks are read, the window shows what it held (as one query per window did).
    if (values.some((value) => !value) || (extraTurn() && !extraActivity)) return;
    const rows: Record<string, MessageRow> = {};
    const activity: Record<string, ActivityRow[]> = {};
    const seen = new Set<string>();
    for (const list of [...values.map((value) => value!.activity), extraActivity ?? []])
      for (const a of list) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        (activity[a.turn] ??= []).push(a);
      }
    for (const value of values) for (const r of value!.rows) rows[r.message_id] = r;
    const media: Record<string, MediaRow> = {};
    for (const value of values) Object.assign(media, value!.media);
    for (const list of Object.values(activity)) list.sort(byTurnOrder);
    batch(() => {
      // Row by row, and only the rows whose read is new: reconciling the whole window walked (and
      // compared) every row of it, whole-file answers among them, on each scroll step that read a block.
      for (const id of Object.keys(given)) if (!(id in rows)) setStore('rows', id, undefined);
      for (const [id, row] of Object.entries(rows)) if (given[id] !== row) setStore('rows', id, reconcile(row));
      setStore('activity', reconcile(activity, { key: 'id' }));
      for (const id of Object.keys(givenMedia)) if (!(id in media)) setStore('media', id, undefined);
      for (const [id, row] of Object.entries(media)) if (givenMedia[id] !== row) setStore('media', id, reconcile(row));
    });
    given = rows;
    givenMedia = media;
  });
  return store;
}

/**
 * The ids the list shows: `stored`, except that while `following()` (the window reaches the end) a change
 * among the newest ids (appended at the end, put in among them, or the gateway's echo taking the place of
 * the pending bubble) is listed only once the newest of the ids it brings are read (`isRead`). Listed at
 * once, they were rows without their message for a frame or more: blank boxes at the bottom as a reply or
 * a catch-up landed, and the person's own message blinking out as its echo replaced it. A change that
 * brings nothing unread among the newest ids (a delete, an older page) and any change out of view are
 * listed at once; a tail still unread after TAIL_HOLD_MS is listed anyway.
 * Must run inside a reactive owner.
 */
export function createListedIds(
  stored: Accessor<string[] | undefined>,
  isRead: (id: string) => boolean,
  following: Accessor<boolean>,
  holdMs = TAIL_HOLD_MS,
): Accessor<string[] | undefined> {
  const [listed, setListed] = createSignal(untrack(stored));
  const [overdue, setOverdue] = createSignal(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  onCleanup(stopTimer);
  createComputed(() => {
    const next = stored();
    const shown = untrack(listed);
    const from = next && shown && following() ? firstChange(shown, next) : next?.length;
    // The ids the change brings among the newest: not those a delete or an older page only moves.
    const had = new Set(shown?.slice(Math.max(from ?? 0, shown.length - 2 * TAIL_AHEAD)));
    const brought = next?.slice(Math.max(from ?? 0, next.length - TAIL_AHEAD)).filter((id) => !had.has(id)) ?? [];
    if (brought.length > 0 && !overdue() && !brought.every(isRead)) {
      timer ??= setTimeout(() => setOverdue(true), holdMs);
      return;
    }
    stopTimer();
    setListed(next);
    if (untrack(overdue)) setOverdue(false);
  });
  return listed;
}

/** The index of the first id of `next` that differs from `shown` (next.length when `next` only drops ids at its end). */
function firstChange(shown: string[], next: string[]): number {
  let i = 0;
  while (i < next.length && shown[i] === next[i]) i++;
  return i;
}

function byTurnOrder(a: ActivityRow, b: ActivityRow): number {
  return a.order - b.order || a.ts - b.ts || a.id.localeCompare(b.id);
}
