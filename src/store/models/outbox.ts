// The send outbox: what the user asked to send, kept until the gateway's echo arrives (spec README §5).
// The sender drains it in seq order; the reducer deletes a row when its echo lands.
import type { MediaRef } from '../../protocol';
import type { IrisDB } from '../db';
import type { MessageRow, OutboxRow } from '../schema';
import { addPending, localMessageId, markFailed as markBubbleFailed, markPending, notePending } from './messages';

export interface SendInput {
  client_id: string;
  lane: string;
  chat_id: string;
  thread_id?: string;
  text: string;
  reply_to?: string;
  /** Local media ids to upload before sending (media issue). */
  attachments?: string[];
  /** Shown on the pending bubble meanwhile. */
  media?: MediaRef[];
  /** Defaults to Date.now(). */
  now?: number;
}

/**
 * Add a send to the outbox. seq is strictly greater than every seq in the table and at least the
 * current time, so order holds across reloads and tabs (the transaction serializes writers).
 * Enqueuing a client_id that is already queued returns the existing row unchanged.
 */
export async function enqueue(db: IrisDB, input: SendInput): Promise<OutboxRow> {
  return db.transaction('rw', db.outbox, async () => {
    const existing = await db.outbox.get(input.client_id);
    if (existing) return existing;
    const now = input.now ?? Date.now();
    const last = await db.outbox.orderBy('seq').last();
    const row: OutboxRow = {
      client_id: input.client_id,
      seq: Math.max(now, (last?.seq ?? 0) + 1),
      lane: input.lane,
      chat_id: input.chat_id,
      text: input.text,
      state: 'queued',
      attempts: 0,
      createdAt: now,
    };
    if (input.thread_id !== undefined) row.thread_id = input.thread_id;
    if (input.reply_to !== undefined) row.reply_to = input.reply_to;
    if (input.attachments?.length) row.attachments = input.attachments;
    await db.outbox.put(row);
    return row;
  });
}

/**
 * Send a message: the pending bubble and the outbox row, in one transaction. If the gateway's echo
 * for this client_id is already stored, nothing is queued and `outbox` is undefined.
 */
export async function queueSend(db: IrisDB, input: SendInput): Promise<{ message: MessageRow; outbox?: OutboxRow }> {
  return db.transaction('rw', db.messages, db.outbox, async () => {
    const message = await addPending(db, { ...input, ts: input.now });
    if (message.status !== 'pending' && message.status !== 'failed') return { message };
    return { message, outbox: await enqueue(db, input) };
  });
}

/** The next send to make: the lowest seq still queued (sending and failed rows are skipped). */
export async function nextQueued(db: IrisDB): Promise<OutboxRow | undefined> {
  return db.outbox
    .orderBy('seq')
    .filter((r) => r.state === 'queued')
    .first();
}

/** Every send not yet acknowledged, in seq order. */
export async function listOutbox(db: IrisDB): Promise<OutboxRow[]> {
  return db.outbox.orderBy('seq').toArray();
}

async function change(db: IrisDB, clientId: string, fn: (row: OutboxRow) => void): Promise<OutboxRow | undefined> {
  return db.transaction('rw', db.outbox, async () => {
    const row = await db.outbox.get(clientId);
    if (!row) return undefined;
    fn(row);
    await db.outbox.put(row);
    return row;
  });
}

/** The frame is on the wire; counts the attempt. */
export async function markSending(db: IrisDB, clientId: string): Promise<OutboxRow | undefined> {
  return change(db, clientId, (row) => {
    row.state = 'sending';
    row.attempts += 1;
    delete row.error;
  });
}

/** The send failed for good (until the user retries): outbox row and bubble show the error. */
export async function markFailed(db: IrisDB, clientId: string, error: string): Promise<OutboxRow | undefined> {
  return db.transaction('rw', db.outbox, db.messages, async () => {
    const row = await change(db, clientId, (r) => {
      r.state = 'failed';
      r.error = error;
    });
    if (row) await markBubbleFailed(db, clientId, error);
    return row;
  });
}

/**
 * The gateway did not answer a send in time on a live connection: queued to go again (the same
 * client_id, which a gateway per §5 does not store twice), and its bubble says so while it waits.
 */
export async function markUnanswered(db: IrisDB, clientId: string, note: string): Promise<OutboxRow | undefined> {
  return db.transaction('rw', db.outbox, db.messages, async () => {
    const row = await change(db, clientId, (r) => {
      r.state = 'queued';
    });
    if (row) await notePending(db, clientId, note);
    return row;
  });
}

/** The user asked to retry a failed send: queued again, bubble pending again. */
export async function retry(db: IrisDB, clientId: string): Promise<OutboxRow | undefined> {
  return db.transaction('rw', db.outbox, db.messages, async () => {
    const row = await change(db, clientId, (r) => {
      r.state = 'queued';
      delete r.error;
    });
    if (row) await markPending(db, clientId);
    return row;
  });
}

/**
 * After a reload or a dropped connection, sends that were on the wire go back to the queue; the
 * gateway recognises a repeated client_id, so sending again never stores the message twice.
 */
export async function requeueSending(db: IrisDB): Promise<number> {
  return db.outbox
    .where('seq')
    .above(-Infinity)
    .filter((r) => r.state === 'sending')
    .modify({ state: 'queued' });
}

/** Drop a send the user gave up on: the outbox row and its pending bubble. */
export async function discardSend(db: IrisDB, clientId: string): Promise<void> {
  await db.transaction('rw', db.outbox, db.messages, async () => {
    await db.outbox.delete(clientId);
    const bubble = await db.messages.get(localMessageId(clientId));
    if (bubble && (bubble.status === 'pending' || bubble.status === 'failed'))
      await db.messages.delete(bubble.message_id);
  });
}
