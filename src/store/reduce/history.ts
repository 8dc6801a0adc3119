// history: a page of final messages, oldest to newest (spec README §9).
import { bool, epochMs, isObject, serverMessageId } from '../../protocol/guards';
import type { IrisDB } from '../db';
import type { MessageRow } from '../schema';
import { patchLane } from '../models/lanes';
import { putWhole } from './messages';
import { ORDER_STEP, withLastTs } from '../order';
import { frameScope } from './scope';
import type { Handler } from './types';

/**
 * Where entries the gateway gives no ts (and the app has not stored) go: just before the next entry of
 * the page that has a time, or before the message the page was asked before; in page order. Without
 * either (the newest page of an empty lane) they are placed on arrival, in order (putFinal).
 */
async function placeUntimed(
  db: IrisDB,
  entries: Record<string, unknown>[],
  rows: (MessageRow | undefined)[],
  before: unknown,
): Promise<(number | undefined)[]> {
  const placed: (number | undefined)[] = [];
  const beforeId = serverMessageId(before);
  let next = beforeId === undefined ? undefined : (await db.messages.get(beforeId))?.ts;
  for (let i = entries.length - 1; i >= 0; i--) {
    const own = epochMs(entries[i]!.ts) ?? rows[i]?.ts;
    if (own !== undefined) next = own;
    else if (next !== undefined) placed[i] = next -= ORDER_STEP;
  }
  return placed;
}

export const history: Handler = async (db, frame, ctx) => {
  const entries = frame.payload.messages;
  if (!Array.isArray(entries)) return;
  const scope = await frameScope(db, frame);
  if (!scope) return;

  // One entry per id (the last one): a page repeating an id must not depend on what was stored before.
  const byId = new Map<string, Record<string, unknown>>();
  for (const entry of entries) {
    const messageId = isObject(entry) ? serverMessageId(entry.message_id) : undefined;
    if (messageId === undefined) continue;
    byId.delete(messageId);
    byId.set(messageId, entry as Record<string, unknown>);
  }
  const page = [...byId.values()];
  const rows = await db.messages.bulkGet([...byId.keys()]);
  const known = rows.some((m) => m?.lane === scope.lane);
  const placed = await placeUntimed(db, page, rows, frame.payload.before_message_id);
  const stored: string[] = [];
  // Each entry after the one before it in the page, where the gateway gives them the same time (order.ts).
  let after: number | undefined;
  let newest: number | undefined;
  for (const [i, entry] of page.entries()) {
    // A reply's tools (the extension) get a turn of their own, unless it has one (seen live here).
    const row = await putWhole(db, scope, entry, ctx, { after, at: placed[i] });
    if (!row) continue;
    stored.push(row.message_id);
    after = row.ts;
    newest = Math.max(newest ?? row.ts, row.ts);
  }
  // A page landed: a failure before it no longer stands (the list stops saying so).
  const last = newest;
  if (last !== undefined || (await db.lanes.get(scope.lane))?.historyFailed) {
    await patchLane(db, scope.lane, (row) => {
      delete row.historyFailed;
      return last === undefined ? row : withLastTs(row, last);
    });
  }

  // Paging state only moves back in time: the newest page fetched after a reconnect must not
  // reset a lane whose older pages are already loaded.
  const hasMore = bool(frame.payload.has_more);
  const pageOldest = serverMessageId(frame.payload.oldest_message_id) ?? stored[0];
  const lane = await db.lanes.get(scope.lane);
  const current = lane?.oldestMessageId;
  const currentTs = current === undefined ? undefined : (await db.messages.get(current))?.ts;
  const pageTs = pageOldest === undefined ? undefined : (await db.messages.get(pageOldest))?.ts;
  const reachesFurther =
    currentTs === undefined || (pageOldest !== undefined && (pageTs === undefined || pageTs <= currentTs));
  const emptyEnd = stored.length === 0 && hasMore === false;
  // A newer page that shares no message with what is stored, with more before it: messages came
  // meanwhile that neither sync nor live frames delivered (more than the replay keeps). The stored stretch
  // no longer reaches the newest messages, so paging starts again from this page, or the gap would
  // never load (and "the beginning of the conversation" would show above it).
  const gap = !reachesFurther && hasMore === true && stored.length > 0 && !known;
  if (!reachesFurther && !emptyEnd && !gap) return;
  await patchLane(db, scope.lane, (row) => {
    if ((reachesFurther || gap) && pageOldest !== undefined) row.oldestMessageId = pageOldest;
    if (hasMore !== undefined && (reachesFurther || emptyEnd || gap)) row.hasMore = hasMore;
    return row;
  });
};
