// history: a page of final messages, oldest to newest (spec README §9).
import { bool, isObject, serverMessageId } from '../../protocol/guards';
import { patchLane } from '../models/lanes';
import { putFinal } from './messages';
import { withLastTs } from './order';
import { frameScope } from './scope';
import type { Handler } from './types';

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
  const known = (await db.messages.bulkGet([...byId.keys()])).some((m) => m?.lane === scope.lane);
  const stored: string[] = [];
  // Each entry after the one before it in the page, where the gateway gives them the same time (order.ts).
  let after: number | undefined;
  let newest: number | undefined;
  for (const entry of byId.values()) {
    const row = await putFinal(db, scope, entry, ctx, { linkOpenTurn: false, after });
    if (!row) continue;
    stored.push(row.message_id);
    after = row.ts;
    newest = Math.max(newest ?? row.ts, row.ts);
  }
  if (newest !== undefined) {
    const last = newest;
    await patchLane(db, scope.lane, (row) => withLastTs(row, last));
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
