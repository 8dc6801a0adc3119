// The lane's messages as the list needs them: every message id in time order (cheap: keys only, from the
// [lane+ts] index), and the full rows of a window around what is on screen. The window is the only
// copy of message rows in memory; it follows the scroll position and the DB (through live()).
import { createComputed, createMemo, type Accessor } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import { live } from '../../../store/live';
import type { IrisDB } from '../../../store/db';
import { activityOfTurns, orphanTurn as findOrphanTurn } from '../../../store/models/activity';
import { storedLane } from '../../../store/models/lanes';
import { getMessages, laneMessageIds as storedMessageIds } from '../../../store/models/messages';
import type { ActivityRow, LaneRow, MessageRow } from '../../../store/schema';

/** Rows kept on each side of the visible range, so a scroll step rarely waits for the DB. */
const MARGIN = 40;
/** Window edges snap to this step, so small scrolls do not re-query. */
const STEP = 25;

export interface LaneWindow {
  rows: Record<string, MessageRow | undefined>;
  /** Activity (tool cards, commentary) per turn, oldest first. */
  activity: Record<string, ActivityRow[] | undefined>;
}

export function laneMessageIds(db: IrisDB, lane: string): Accessor<string[] | undefined> {
  return live(() => storedMessageIds(db, lane));
}

export function laneRow(db: IrisDB, lane: string): Accessor<LaneRow | undefined> {
  return live(() => storedLane(db, lane));
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
 * Keeps `store` filled with the rows of `ids[range]` and the activity of their turns (plus `extraTurn`).
 * Must run inside a reactive owner.
 */
export function createLaneWindow(
  db: IrisDB,
  ids: Accessor<string[]>,
  range: Accessor<[number, number]>,
  extraTurn: Accessor<string | undefined>,
): LaneWindow {
  const [store, setStore] = createStore<LaneWindow>({ rows: {}, activity: {} });
  const slice = createMemo(
    () => {
      const [start, end] = range();
      return ids().slice(start, end);
    },
    [],
    { equals: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]) },
  );

  createComputed(() => {
    const wanted = slice();
    const turnExtra = extraTurn();
    // A fresh live query per window; the previous one ends with this computation's re-run.
    const result = live(async () => {
      const rows = (await getMessages(db, wanted)).filter((r): r is MessageRow => !!r);
      const turns = new Set<string>();
      for (const r of rows) if (r.turn) turns.add(r.turn);
      if (turnExtra) turns.add(turnExtra);
      const activity = await activityOfTurns(db, [...turns]);
      return { rows, activity };
    });
    createComputed(() => {
      const value = result();
      if (!value) return;
      const rows: Record<string, MessageRow> = {};
      for (const r of value.rows) rows[r.message_id] = r;
      const activity: Record<string, ActivityRow[]> = {};
      for (const a of value.activity) (activity[a.turn] ??= []).push(a);
      for (const list of Object.values(activity)) list.sort(byTurnOrder);
      setStore('rows', reconcile(rows));
      setStore('activity', reconcile(activity, { key: 'id' }));
    });
  });
  return store;
}

function byTurnOrder(a: ActivityRow, b: ActivityRow): number {
  return a.order - b.order || a.ts - b.ts || a.id.localeCompare(b.id);
}
