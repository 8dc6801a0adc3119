// message, message.start/update/stop, message.deleted, read.receipt (spec README §5-§7).
import Dexie from 'dexie';
import type { IrisDB } from '../db';
import {
  epochMs,
  finite,
  historyTools,
  id,
  int,
  LOCAL_ID_PREFIX,
  mediaRefs,
  role,
  serverMessageId,
  str,
} from '../../protocol/guards';
import type { LaneScope } from '../models/channels';
import { ensureTurn, markRead, patchLane } from '../models/lanes';
import { recordRemoteMedia } from '../models/media';
import { finalStatus, localMessageId } from '../models/messages';
import type { LaneRow, MessageRow } from '../schema';
import { putHistoryTools } from './activity';
import { mergeRefs, offeredRefs } from './media';
import { arrivalTs, sortTs, withLastTs } from '../order';
import { frameScope } from './scope';
import type { Handler, ReduceContext } from './types';

/**
 * The local pending bubble for `clientId` (deleted along with its outbox row: the echo replaces
 * them). Another gateway message holding the same client_id (only a confused or hostile gateway
 * does that) gives it up: the latest claim wins, which keeps a client_id unique AND makes applying
 * a page twice the same as applying it once, whatever order its entries come in.
 */
async function takePending(db: IrisDB, clientId: string, messageId: string): Promise<{ pending?: MessageRow }> {
  const holders = await db.messages.where('client_id').equals(clientId).toArray();
  const local = await db.messages.get(localMessageId(clientId));
  if (local && !holders.some((h) => h.message_id === local.message_id)) holders.push(local);
  let pending: MessageRow | undefined;
  for (const row of holders) {
    if (row.message_id === messageId) continue;
    if (row.message_id.startsWith(LOCAL_ID_PREFIX)) {
      pending ??= row;
      await db.messages.delete(row.message_id);
    } else {
      const { client_id: _taken, ...rest } = row;
      await db.messages.put(rest);
    }
  }
  await db.outbox.delete(clientId);
  return { pending };
}

/**
 * Store a finished message from a `message` frame or a `history` entry. It replaces any row with
 * the same id (keeping what only this app knows: read state, turn, offered media, client_id) and
 * the user's pending bubble it answers. Returns the row, or undefined for an unusable entry.
 * `after`: the newest time before it (order.ts); `at`: where it goes when neither the gateway nor the app
 * has a time for it; `openTurn`: the lane's open turn, which a new reply joins (none for history);
 * `ownTurn`: a turn of its own for a reply with no turn yet (history's replies with their tools).
 */
async function putFinal(
  db: IrisDB,
  scope: LaneScope,
  p: Record<string, unknown>,
  ctx: ReduceContext,
  options: { openTurn?: string; ownTurn?: string; clientId?: string; after?: number; at?: number },
): Promise<MessageRow | undefined> {
  const messageId = serverMessageId(p.message_id);
  if (messageId === undefined) return undefined;
  const existing = await db.messages.get(messageId);
  const messageRole = role(p.role) ?? existing?.role;
  if (messageRole === undefined) return undefined;

  const clientId = id(p.client_id) ?? options.clientId;
  const { pending } = clientId ? await takePending(db, clientId, messageId) : {};

  const row: MessageRow = {
    message_id: messageId,
    lane: scope.lane,
    chat_id: scope.chat_id,
    role: messageRole,
    text: str(p.text) ?? '',
    ts: sortTs(epochMs(p.ts), existing?.ts ?? pending?.ts ?? options.at, options.after, ctx.now),
    status: finalStatus(messageRole, existing),
  };
  if (scope.thread_id !== undefined) row.thread_id = scope.thread_id;
  const reasoning = str(p.reasoning);
  if (reasoning) row.reasoning = reasoning;
  // Measured here while it streamed, else as the gateway measured it (the `thought_ms` extension).
  const thought = existing?.thought_ms ?? finite(p.thought_ms);
  if (thought !== undefined && thought >= 0) row.thought_ms = thought;
  const model = str(p.model);
  if (model) row.model = model;
  const tokens = int(p.tokens);
  if (tokens !== undefined) row.tokens = tokens;
  const replyTo = id(p.reply_to) ?? existing?.reply_to ?? pending?.reply_to;
  if (replyTo !== undefined) row.reply_to = replyTo;
  const keptClientId = clientId ?? existing?.client_id;
  if (keptClientId !== undefined) row.client_id = keptClientId;
  // Stopped by this device (marked on asking), or by any (the gateway's extension says so).
  if (existing?.stopped || p.stopped === true) row.stopped = true;
  if (pending || existing?.sent_here) row.sent_here = true;

  const turn =
    messageRole !== 'assistant'
      ? existing?.turn
      : existing
        ? (existing.turn ?? options.ownTurn)
        : (options.openTurn ?? options.ownTurn);
  if (turn !== undefined) row.turn = turn;

  const given = mediaRefs(p.media);
  const offered = await offeredRefs(db, messageId);
  const media = mergeRefs(mergeRefs(given ?? pending?.media ?? [], existing?.media ?? []), offered);
  if (media.length) row.media = media;
  for (const ref of given ?? []) await recordRemoteMedia(db, ref, { lane: scope.lane, message_id: messageId }, ctx.now);

  await db.messages.put(row);
  return row;
}

/** The turn of a reply read whole (history, a `message` frame) that has none from tool frames. */
const historyTurn = (messageId: string): string => `history:${messageId}`;

/**
 * putFinal for a message that comes whole (a `message` frame, a history entry): a reply that carries its
 * turn's tools (the `tools` extension) and joins no turn (none open here, none of its own yet) gets the
 * turn `history:<id>` with their cards. A reply that joined a turn keeps the cards its tool frames made.
 */
export async function putWhole(
  db: IrisDB,
  scope: LaneScope,
  p: Record<string, unknown>,
  ctx: ReduceContext,
  options: { openTurn?: string; clientId?: string; after?: number; at?: number },
): Promise<MessageRow | undefined> {
  const tools = historyTools(p.tools);
  const id = serverMessageId(p.message_id);
  const ownTurn = tools.length && id !== undefined ? historyTurn(id) : undefined;
  const row = await putFinal(db, scope, p, ctx, { ...options, ownTurn });
  if (row && ownTurn !== undefined && row.turn === ownTurn) await putHistoryTools(db, row, tools);
  return row;
}

export const message: Handler = async (db, frame, ctx) => {
  if (serverMessageId(frame.payload.message_id) === undefined) return;
  const scope = await frameScope(db, frame);
  if (!scope) return;
  const lane = await db.lanes.get(scope.lane);
  const row = await putWhole(db, scope, frame.payload, ctx, {
    openTurn: lane?.turn,
    clientId: ctx.clientId,
    after: lane?.lastTs,
  });
  if (row) await patchLane(db, scope.lane, (lane) => endTurnWith(withLastTs(lane, row.ts), row));
};

/**
 * A reply's end ends its turn when nothing says the agent works on (no agent.busy: protocol.py has
 * neither it nor agent.idle); else the next reply would join it and show its tools as its own (tool
 * rows are keyed by turn and index, so the next turn's tool 0 took the place of this one's). With
 * agent.busy the turn stays open until agent.idle: a turn can hold more than one reply.
 */
function endTurnWith(lane: LaneRow, reply: MessageRow): LaneRow {
  if (!lane.busy && reply.role === 'assistant' && reply.turn !== undefined && reply.turn === lane.turn)
    delete lane.turn;
  return lane;
}

/**
 * A start for a reply this device has: a replay of its turn (a gateway without the live cursor replays
 * everything since the last sync.done, spec README §16). The tools and commentary that follow carry no
 * message id and belong to "the turn in progress" (§7): that is this reply's turn again, until its stop
 * ends it, or they would open a new turn and show as an empty reply at work, its tools taken over by the
 * next reply. A reply without a turn (read from history) gets one of its own. (Its stop, or agent.idle,
 * comes later in the same replay: the outbox keeps terminal frames, in order.)
 */
async function resumeTurnOf(db: IrisDB, reply: MessageRow): Promise<void> {
  if (reply.role !== 'assistant') return;
  const turn = reply.turn ?? historyTurn(reply.message_id);
  if (reply.turn === undefined) await db.messages.update(reply.message_id, { turn });
  await patchLane(db, reply.lane, (lane) => ({ ...lane, turn }));
}

/** How long a streaming reply's agent thought, up to `now` (rows from before `started_at` start at their ts). */
const thoughtMs = (row: MessageRow, now: number) => Math.max(0, now - (row.started_at ?? row.ts));

export const messageStart: Handler = async (db, frame, ctx) => {
  const messageId = serverMessageId(frame.payload.message_id);
  if (messageId === undefined) return;
  // Already streaming, or already final (a replay after the end must not reopen the bubble).
  const known = await db.messages.get(messageId);
  if (known) return ctx.replay ? resumeTurnOf(db, known) : undefined;
  const scope = await frameScope(db, frame);
  if (!scope) return;
  let turn = '';
  let ts = ctx.now;
  await patchLane(db, scope.lane, (lane) => {
    turn = ensureTurn(lane);
    ts = arrivalTs(lane.lastTs, ctx.now); // the stop's ts decides where it ends up
    return lane;
  });
  const row: MessageRow = {
    message_id: messageId,
    lane: scope.lane,
    chat_id: scope.chat_id,
    role: role(frame.payload.role) ?? 'assistant',
    text: '',
    ts,
    status: 'streaming',
    turn,
    started_at: ctx.now,
  };
  if (scope.thread_id !== undefined) row.thread_id = scope.thread_id;
  await db.messages.put(row);
};

/**
 * The hot path (bursts of thousands): one read, at most one write, never a final row. Written with
 * modify(), which reads the row through the transaction's cache: Dexie then sees that no index key
 * changed, so live queries of the lane's ids, counts and other index ranges do not re-run on every
 * streamed update (after a get() and put() they all did: each re-read the lane, the growing row too).
 */
export const messageUpdate: Handler = async (db, frame, ctx) => {
  const messageId = serverMessageId(frame.payload.message_id);
  const text = str(frame.payload.text);
  if (messageId === undefined || text === undefined) return;
  // Extension: reasoning so far, streamed before the text (kept when an update leaves it out).
  const reasoning = str(frame.payload.reasoning) || undefined;
  await db.messages
    .where(':id')
    .equals(messageId)
    .modify((row) => {
      if (row.status !== 'streaming') return false;
      if (row.text === text && (reasoning === undefined || row.reasoning === reasoning)) return false;
      // The first text of the bubble ends the agent's thinking.
      if (!row.text && text && row.thought_ms === undefined) row.thought_ms = thoughtMs(row, ctx.now);
      row.text = text;
      if (reasoning !== undefined) row.reasoning = reasoning;
      return true;
    });
};

export const messageStop: Handler = async (db, frame, ctx) => {
  const messageId = serverMessageId(frame.payload.message_id);
  if (messageId === undefined) return;
  const p = frame.payload;
  let row = await db.messages.get(messageId);
  const known = row?.ts;
  if (!row) {
    // A stop without its start (tolerated): the final bubble still appears, in the turn if one is open.
    const scope = await frameScope(db, frame);
    if (!scope) return;
    row = {
      message_id: messageId,
      lane: scope.lane,
      chat_id: scope.chat_id,
      role: 'assistant',
      text: '',
      ts: ctx.now,
      status: 'final',
    };
    if (scope.thread_id !== undefined) row.thread_id = scope.thread_id;
    const turn = (await db.lanes.get(scope.lane))?.turn;
    if (turn !== undefined) row.turn = turn;
  } else {
    row = { ...row };
  }
  const finalText = str(p.final_text);
  // A stop that brings the first text (its updates superseded, or none sent) also ends the thinking.
  if (row.status === 'streaming' && !row.text && finalText && row.thought_ms === undefined && !ctx.replay)
    row.thought_ms = thoughtMs(row, ctx.now);
  delete row.started_at;
  row.text = finalText ?? row.text;
  const reasoning = str(p.reasoning);
  if (reasoning !== undefined) row.reasoning = reasoning;
  const model = str(p.model);
  if (model !== undefined) row.model = model;
  const tokens = int(p.tokens);
  if (tokens !== undefined) row.tokens = tokens;
  if (p.stopped === true) row.stopped = true; // the extension: stopped on whichever device
  const final = row; // `row` is reassigned above: the closure takes this one
  await patchLane(db, row.lane, (lane) => {
    final.ts = sortTs(epochMs(p.ts), known, lane.lastTs, ctx.now);
    return endTurnWith(withLastTs(lane, final.ts), final);
  });
  row.status = finalStatus(row.role, row);
  await db.messages.put(row);
};

export const messageDeleted: Handler = async (db, frame) => {
  const list = frame.payload.message_ids;
  if (!Array.isArray(list)) return;
  const ids = [...new Set(list.map(serverMessageId).filter((v): v is string => v !== undefined))];
  if (ids.length === 0) return;
  const rows = (await db.messages.bulkGet(ids)).filter((r): r is MessageRow => r !== undefined);
  await db.messages.bulkDelete(ids);
  await db.activity.where('message_id').anyOf(ids).delete();
  const mediaIds = await db.media.where('message_id').anyOf(ids).primaryKeys();
  await db.media.bulkDelete(mediaIds);
  await db.mediaBlobs.bulkDelete(mediaIds);

  for (const lane of new Set(rows.map((r) => r.lane))) {
    const laneRow = await db.lanes.get(lane);
    // Tool cards go with the last message of their turn, unless the agent is still working in it.
    for (const turn of new Set(rows.filter((r) => r.lane === lane && r.turn).map((r) => r.turn!))) {
      if (turn === laneRow?.turn) continue;
      if ((await db.messages.where('turn').equals(turn).count()) === 0)
        await db.activity.where('turn').equals(turn).delete();
    }
    // Paging must not continue from a message the gateway no longer has.
    if (laneRow?.oldestMessageId !== undefined && ids.includes(laneRow.oldestMessageId)) {
      const oldest = await db.messages
        .where('[lane+ts]')
        .between([lane, Dexie.minKey], [lane, Dexie.maxKey])
        .filter((m) => !m.message_id.startsWith(LOCAL_ID_PREFIX))
        .first();
      const next = { ...laneRow };
      if (oldest) next.oldestMessageId = oldest.message_id;
      else delete next.oldestMessageId;
      await db.lanes.put(next);
    }
  }
};

/**
 * From the gateway, `read.receipt{message_id}` means the agent started on the user's message (§5)
 * or another device read the lane up to that message (§6): a user bubble turns read, and the
 * lane's read mark moves forward to it either way.
 */
export const readReceipt: Handler = async (db, frame) => {
  const messageId = serverMessageId(frame.payload.message_id);
  if (messageId === undefined) return;
  const row = await db.messages.get(messageId);
  if (!row) return;
  if (row.role === 'user' && (row.status === 'sent' || row.status === 'final')) {
    await db.messages.update(messageId, { status: 'read' });
  }
  await markRead(db, row.lane, messageId, row.ts);
};
