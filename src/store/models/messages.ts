// Messages of a lane as the UI reads them, and the user's own pending bubbles.
import Dexie from 'dexie';
import type { MediaRef } from '../../protocol';
import type { IrisDB } from '../db';
import { LOCAL_ID_PREFIX } from '../../protocol/guards';
import type { MessageRow, MessageStatus } from '../schema';
import { patchLane } from './lanes';
import { arrivalTs } from '../order';

/** The id a message the user is sending lives under until the gateway's echo replaces it. */
export function localMessageId(clientId: string): string {
  return `${LOCAL_ID_PREFIX}${clientId}`;
}

/** Every key localMessageId can make, as a range of primary keys (both ends included). */
export const LOCAL_MESSAGE_IDS = { lower: LOCAL_ID_PREFIX, upper: `${LOCAL_ID_PREFIX}\uffff` } as const;

function laneRange(db: IrisDB, lane: string, afterTs = -Infinity) {
  return db.messages.where('[lane+ts]').between([lane, afterTs], [lane, Dexie.maxKey], false, true);
}

/** The newest `limit` messages of a lane, oldest first (the order they are shown in). */
export async function laneMessages(db: IrisDB, lane: string, limit = 100): Promise<MessageRow[]> {
  const newestFirst = await laneRange(db, lane).reverse().limit(limit).toArray();
  return newestFirst.reverse();
}

export async function getMessage(db: IrisDB, messageId: string): Promise<MessageRow | undefined> {
  return db.messages.get(messageId);
}

/** The rows of `messageIds`, in the same order, undefined where a message is not stored. */
export async function getMessages(db: IrisDB, messageIds: readonly string[]): Promise<(MessageRow | undefined)[]> {
  return db.messages.bulkGet([...messageIds]);
}

/** Every message id of a lane in time order: keys only, from the index (the list's whole length, cheaply). */
export async function laneMessageIds(db: IrisDB, lane: string): Promise<string[]> {
  return (await laneRange(db, lane).primaryKeys()) as string[];
}

/** The lane's oldest message from the gateway (not a local pending one): where an older history page ends. */
export async function oldestServerMessage(db: IrisDB, lane: string): Promise<MessageRow | undefined> {
  return laneRange(db, lane)
    .filter((m) => !m.message_id.startsWith(LOCAL_ID_PREFIX))
    .first();
}

/** Messages of a lane that carry media of `kind`, in time order. */
export async function laneMessagesWithMedia(db: IrisDB, lane: string, kind: MediaRef['kind']): Promise<MessageRow[]> {
  return laneRange(db, lane)
    .filter((m) => m.media?.some((r) => r.kind === kind) ?? false)
    .toArray();
}

/** The lane's newest message (preview in the channel list; the one a read.receipt names). */
export async function newestMessage(db: IrisDB, lane: string): Promise<MessageRow | undefined> {
  return laneRange(db, lane).last();
}

/** What the screen needs of a lane's newest message to know whether a reply is on its way or ended. */
export type MessageHead = Pick<MessageRow, 'message_id' | 'role' | 'status'>;

/** Rows of streaming messages as `newestKept` last read them, per database (a few: streams end). */
const streamingRows = new WeakMap<IrisDB, Map<string, MessageRow>>();

/**
 * The lane's newest message, for a live query: while it streams, the row as read before once it holds
 * all the reader needs (`enough`), found from the indexes alone (the lane's keys, the streaming
 * status), so the store's writes of its growing text (up to a whole file, several a second) do not
 * make the query read the whole row again after each one. Its stop changes its status: read again then.
 */
async function newestKept(
  db: IrisDB,
  lane: string,
  enough: (row: MessageRow) => boolean,
): Promise<MessageRow | undefined> {
  const [id] = (await laneRange(db, lane).reverse().limit(1).primaryKeys()) as string[];
  if (id === undefined) return undefined;
  let rows = streamingRows.get(db);
  if (!rows) streamingRows.set(db, (rows = new Map<string, MessageRow>()));
  const kept = rows.get(id);
  if (kept && enough(kept)) {
    const streaming = (await db.messages.where('status').equals('streaming').primaryKeys()) as string[];
    if (streaming.includes(id)) return kept;
  }
  const row = await db.messages.get(id);
  if (row?.status !== 'streaming') rows.delete(id);
  else {
    if (rows.size >= 50) rows.clear();
    rows.set(id, row);
  }
  return row;
}

/**
 * The lane's newest message as far as its head (id, role, status): what says whether the agent's reply
 * is streaming or ended. A streaming row is not read again while only its text grows.
 */
export async function newestHead(db: IrisDB, lane: string): Promise<MessageHead | undefined> {
  return db.transaction('r', db.messages, () => newestKept(db, lane, () => true));
}

/**
 * When the agent last wrote in the lane (the ts of its newest message, streaming or not), from the index's
 * keys only: a reply's growing text does not make a live reader read its row.
 */
export async function newestAgentTs(db: IrisDB, lane: string): Promise<number | undefined> {
  const key = (await db.messages
    .where('[lane+role+ts]')
    .between([lane, 'assistant', Dexie.minKey], [lane, 'assistant', Dexie.maxKey])
    .lastKey()) as [string, string, number] | undefined;
  return key?.[2];
}

/** The lane's newest message from the gateway (not a local pending one): what `read.receipt` may name. */
export async function newestServerMessage(db: IrisDB, lane: string): Promise<MessageRow | undefined> {
  return (
    laneRange(db, lane)
      .reverse()
      // A reply still streaming is not stored by the gateway yet: a read mark on it would be refused.
      .filter((m) => !m.message_id.startsWith(LOCAL_ID_PREFIX) && m.status !== 'streaming')
      .first()
  );
}

/**
 * Messages newer than the lane's read mark that the user did not write. A reply still streaming is not
 * counted, nor one the reader followed to its end (see LaneRow.following): it cannot be marked read
 * until it ends (the gateway does not store it before), so the lane a person is reading would show it
 * as unread the whole time it is written.
 */
export async function unreadCount(db: IrisDB, lane: string): Promise<number> {
  return db.transaction('r', db.lanes, db.messages, async () => {
    const row = await db.lanes.get(lane);
    const readTs = row?.readTs ?? 0;
    // Keys only, from three indexes: no row is read. Reading the candidates' rows (to see who wrote
    // them and whether they stream) cost a request per unread message, and every live count (the
    // badge, the channel list) paid it again at each write: a catch-up of 1,200 messages made 8,000
    // reads (issue 17). Nor does a streamed reply's growing text make a live count read again.
    const [ids, mine, streaming] = await Promise.all([
      laneRange(db, lane, readTs).primaryKeys(),
      db.messages
        .where('[lane+role+ts]')
        .between([lane, 'user', readTs], [lane, 'user', Dexie.maxKey], false, true)
        .primaryKeys(),
      db.messages.where('status').equals('streaming').primaryKeys(),
    ]);
    const skip = new Set<string>([...(mine as string[]), ...(streaming as string[])]);
    if (row?.following !== undefined) skip.add(row.following);
    return (ids as string[]).filter((id) => !skip.has(id)).length;
  });
}

/**
 * Unread messages summed over the directory's lanes (channels and threads), but `except` (the lane on
 * screen, when the sum says what is new elsewhere). Per-lane key ranges: a long read history costs nothing.
 */
export async function totalUnread(db: IrisDB, except?: string): Promise<number> {
  const lanes = (await db.channels.toCollection().primaryKeys()).filter((lane) => lane !== except);
  const counts = await Promise.all(lanes.map((lane) => unreadCount(db, lane)));
  return counts.reduce((sum, n) => sum + n, 0);
}

/**
 * What the channel list shows of a lane, read together: its unread count and newest message. `newest`
 * is shown by the start of its text: while it streams and its text holds `previewChars` already, the row
 * as read then (its text only grows), not read again on each write of it.
 */
export async function laneGlance(
  db: IrisDB,
  lane: string,
  previewChars: number,
): Promise<{ unread: number; newest: MessageRow | undefined }> {
  return db.transaction('r', db.messages, db.lanes, async () => {
    const [unread, newest] = await Promise.all([
      unreadCount(db, lane),
      newestKept(db, lane, (row) => row.text.length >= previewChars),
    ]);
    return { unread, newest };
  });
}

export interface PendingInput {
  client_id: string;
  lane: string;
  chat_id: string;
  thread_id?: string;
  text: string;
  reply_to?: string;
  media?: MediaRef[];
  /** When it was sent: now by default. */
  ts?: number;
}

/**
 * Show the user's message at once, as pending, under `local:<client_id>`. If the gateway's echo for
 * this client_id is already stored, nothing is added (a client_id is never shown twice); returns
 * the row that represents the message.
 */
export async function addPending(db: IrisDB, input: PendingInput): Promise<MessageRow> {
  return db.transaction('rw', db.messages, async () => {
    const existing = await db.messages.where('client_id').equals(input.client_id).first();
    if (existing) return existing;
    // After the lane's newest message even where the gateway's clock stamped that one later than now.
    const [newest] = (await laneRange(db, input.lane).reverse().limit(1).keys()) as unknown as [string, number][];
    const row: MessageRow = {
      message_id: localMessageId(input.client_id),
      lane: input.lane,
      chat_id: input.chat_id,
      role: 'user',
      text: input.text,
      ts: arrivalTs(newest?.[1], input.ts ?? Date.now()),
      status: 'pending',
      client_id: input.client_id,
    };
    if (input.thread_id !== undefined) row.thread_id = input.thread_id;
    if (input.reply_to !== undefined) row.reply_to = input.reply_to;
    if (input.media?.length) row.media = input.media;
    await db.messages.put(row);
    return row;
  });
}

/**
 * The person asks the agent to stop: the lane's streaming replies will end as stopped (marked before the
 * request goes, since their message.stop can land before its answer). Returns their ids, to unmark if
 * the request fails.
 */
export async function markStopping(db: IrisDB, lane: string): Promise<string[]> {
  return db.transaction('rw', db.messages, async () => {
    const rows = await db.messages
      .where('status')
      .equals('streaming')
      .filter((m) => m.lane === lane && m.role === 'assistant')
      .toArray();
    for (const row of rows) await db.messages.update(row.message_id, { stopped: true });
    return rows.map((row) => row.message_id);
  });
}

/** The stop was not taken: those replies were not stopped after all. */
export async function unmarkStopping(db: IrisDB, messageIds: string[]): Promise<void> {
  await db.transaction('rw', db.messages, async () => {
    for (const id of messageIds) await db.messages.update(id, { stopped: undefined });
  });
}

/** The pending bubble failed to send: show the error (and a retry). False if it is no longer pending. */
export async function markFailed(db: IrisDB, clientId: string, error: string): Promise<boolean> {
  return setLocalStatus(db, clientId, (row) => {
    row.status = 'failed';
    row.error = error;
  });
}

/** Back to pending (retry). False if the bubble is no longer local. */
export async function markPending(db: IrisDB, clientId: string): Promise<boolean> {
  return setLocalStatus(db, clientId, (row) => {
    row.status = 'pending';
    delete row.error;
  });
}

/** A pending bubble's words on why it still waits (cleared by markPending; the echo replaces the bubble). */
export async function notePending(db: IrisDB, clientId: string, note: string): Promise<boolean> {
  return setLocalStatus(db, clientId, (row) => {
    if (row.status === 'pending') row.error = note;
  });
}

async function setLocalStatus(db: IrisDB, clientId: string, change: (row: MessageRow) => void): Promise<boolean> {
  return db.transaction('rw', db.messages, async () => {
    const row = await db.messages.get(localMessageId(clientId));
    if (!row || (row.status !== 'pending' && row.status !== 'failed')) return false;
    change(row);
    await db.messages.put(row);
    return true;
  });
}

/** Status of a message the gateway has finished: user bubbles are sent (or stay read), others final. */
export function finalStatus(role: MessageRow['role'], existing: MessageRow | undefined): MessageStatus {
  if (role !== 'user') return 'final';
  return existing?.status === 'read' ? 'read' : 'sent';
}

/**
 * The lane's agent is idle (agent.idle, or a stop the gateway refuses as nothing to stop): it works no
 * more, its turn ends, and a reply whose stop never came ends with the text it has.
 */
export async function endAgentTurn(db: IrisDB, lane: string): Promise<void> {
  await db.transaction('rw', db.lanes, db.messages, async () => {
    await patchLane(db, lane, (row) => {
      row.busy = false;
      row.typing = false;
      delete row.busyReason;
      delete row.turn;
      return row;
    });
    const streaming = await db.messages
      .where('status')
      .equals('streaming')
      .filter((m) => m.lane === lane)
      .toArray();
    for (const row of streaming)
      await db.messages.update(row.message_id, { status: finalStatus(row.role, row), started_at: undefined });
  });
}
