// Per-lane state that is not a message: read mark, busy/typing, the open agent turn, history paging.
import type { IrisDB } from '../db';
import type { LaneRow } from '../schema';

export function emptyLane(lane: string): LaneRow {
  return { lane, readTs: 0, busy: false, typing: false, turnSeq: 0 };
}

/** The lane's row, or a fresh one (not stored) if the lane has none yet. */
export async function getLane(db: IrisDB, lane: string): Promise<LaneRow> {
  return (await db.lanes.get(lane)) ?? emptyLane(lane);
}

/** The lane's row as stored: undefined until the lane has one (nothing read or paged yet). */
export async function storedLane(db: IrisDB, lane: string): Promise<LaneRow | undefined> {
  return db.lanes.get(lane);
}

function sameRow(a: LaneRow, b: LaneRow): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof LaneRow>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/**
 * Read-modify-write of one lane row; `change` returns the new row (it may mutate and return its argument).
 * Writes only when something changed, so repeated frames do not wake every live query.
 */
export async function patchLane(db: IrisDB, lane: string, change: (row: LaneRow) => LaneRow): Promise<LaneRow> {
  return db.transaction('rw', db.lanes, async () => {
    const stored = await db.lanes.get(lane);
    const before = stored ?? emptyLane(lane);
    const after = change({ ...before });
    if (!stored || !sameRow(before, after)) await db.lanes.put(after);
    return after;
  });
}

/** Mutates `row` so it has an open turn, numbering a new one `${lane}#${turnSeq}`; returns the turn id. */
export function ensureTurn(row: LaneRow): string {
  if (row.turn) return row.turn;
  row.turnSeq += 1;
  row.turn = `${row.lane}#${row.turnSeq}`;
  return row.turn;
}

/** The lane's open turn, opening one if none is open. */
export async function openTurn(db: IrisDB, lane: string): Promise<string> {
  let turn = '';
  await patchLane(db, lane, (row) => {
    turn = ensureTurn(row);
    return row;
  });
  return turn;
}

/**
 * Record that the user has seen the lane up to the message at `ts` (this device or another one).
 * Only ever moves forward; returns whether the mark moved.
 */
export async function markRead(db: IrisDB, lane: string, messageId: string, ts: number): Promise<boolean> {
  let moved = false;
  await patchLane(db, lane, (row) => {
    if (ts > row.readTs) {
      row.readTs = ts;
      row.readMessageId = messageId;
      moved = true;
    }
    if (row.following === messageId) delete row.following;
    return row;
  });
  return moved;
}

/** The reader is on the lane's newest message while it streams (undefined: they left it). */
export async function setFollowing(db: IrisDB, lane: string, messageId: string | undefined): Promise<void> {
  await patchLane(db, lane, (row) => {
    if (messageId === undefined) delete row.following;
    else row.following = messageId;
    return row;
  });
}

/** A history page of the lane failed at the gateway (see LaneRow.historyFailed). */
export async function markHistoryFailed(db: IrisDB, lane: string): Promise<void> {
  await patchLane(db, lane, (row) => ({ ...row, historyFailed: true }));
}

/** The UI calls this once it has moved into the auto-created thread (or chose not to). */
export async function clearAutoThread(db: IrisDB, lane: string): Promise<void> {
  await db.transaction('rw', db.lanes, async () => {
    const row = await db.lanes.get(lane);
    if (row?.autoThread !== undefined) {
      delete row.autoThread;
      await db.lanes.put(row);
    }
  });
}
