// Drains the send outbox (spec README §5): in seq order, one message at a time, each with its
// client_id, so a message is delivered exactly once however often the connection drops or the page
// reloads. The reducer replaces the pending bubble and deletes the outbox row when the echo lands.
import { liveQuery } from 'dexie';
import type { ClientFrame, ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import { markFailed, markSending, markUnanswered, nextQueued, requeueSending } from '../store/models/outbox';
import type { OutboxRow } from '../store/schema';
import type { RequestOptions } from './connection';
import { backoffDelay } from './backoff';
import { ConnectionLostError, ProtocolError, RequestTimeoutError, describeError } from './errors';
import { realTimers, type Timers } from './timers';

/** What a bubble says while a send the gateway did not answer in time goes again. */
const UNANSWERED = 'No answer from the gateway yet. Sending again…';

export interface SenderOptions {
  db: IrisDB;
  request(frame: ClientFrame, options?: RequestOptions): Promise<ServerFrame>;
  isOnline(): boolean;
  /** Uploads an attachment (a local media id) and returns its media_ref; required for rows with attachments. */
  uploadAttachment?(mediaId: string, signal?: AbortSignal): Promise<string>;
  timers?: Timers;
  random?: () => number;
  /** First wait after `rate_limited` (doubles, with jitter, up to 30 s). */
  rateLimitBaseMs?: number;
}

export class Sender {
  private running = false;
  private again = false;
  private stopped = false;
  private readonly timers: Timers;
  private wakeNap?: () => void;
  private current?: Promise<void>;

  constructor(private readonly opts: SenderOptions) {
    this.timers = opts.timers ?? realTimers;
  }

  /** Sends that were on the wire when the page closed or the connection dropped go back to the queue. */
  async recover(): Promise<void> {
    await requeueSending(this.opts.db);
  }

  /** Something may be waiting to be sent (new outbox row, connection back, retry): drain. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.current = this.drain().catch((err) => console.error('iris: the outbox could not be sent', err));
  }

  stop(): void {
    this.stopped = true;
    this.wakeNap?.();
  }

  /** Resolves once no drain is running (tests and shutdown). */
  async idle(): Promise<void> {
    await this.current;
  }

  /** A wait that stop() cuts short, so shutting down never waits out a rate-limit pause. */
  private nap(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.timers.clearTimeout(timer);
        this.wakeNap = undefined;
        resolve();
      };
      const timer = this.timers.setTimeout(done, ms);
      this.wakeNap = done;
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        await this.drainOnce();
      } while (this.again && !this.stopped);
    } finally {
      this.running = false;
    }
  }

  private async drainOnce(): Promise<void> {
    let rateLimits = 0;
    while (!this.stopped && this.opts.isOnline()) {
      const row = await nextQueued(this.opts.db);
      if (!row) return;
      const outcome = await this.sendOne(row);
      if (outcome === 'stop') {
        // Lost the connection: whatever was on the wire is sent again (same client_id) next time.
        await requeueSending(this.opts.db);
        return;
      }
      if (outcome === 'rate-limited') {
        await requeueSending(this.opts.db);
        const wait = Math.max(
          this.opts.rateLimitBaseMs ?? 1000,
          backoffDelay(rateLimits++, this.opts.random, this.opts.rateLimitBaseMs ?? 1000),
        );
        await this.nap(wait);
        continue;
      }
      rateLimits = 0;
    }
  }

  private async sendOne(row: OutboxRow): Promise<'sent' | 'failed' | 'stop' | 'rate-limited'> {
    const { db } = this.opts;
    if (!(await markSending(db, row.client_id))) return 'sent'; // deleted meanwhile (echo came by sync)
    // The person may cancel (discard) while files upload: the upload stops and nothing is sent.
    const cancel = row.attachments?.length ? watchDiscard(db, row.client_id) : undefined;
    try {
      let media_refs: string[] | undefined;
      if (row.attachments?.length) {
        if (!this.opts.uploadAttachment) throw new Error('Attachments cannot be sent from here.');
        media_refs = [];
        for (const id of row.attachments) media_refs.push(await this.opts.uploadAttachment(id, cancel!.signal));
        if (cancel!.signal.aborted || !(await db.outbox.get(row.client_id))) return 'sent';
      }
      const frame: ClientFrame = {
        v: 1,
        type: 'message.send',
        chat_id: row.chat_id,
        payload: { text: row.text, client_id: row.client_id },
      };
      if (row.thread_id !== undefined) frame.thread_id = row.thread_id;
      if (row.reply_to !== undefined) frame.payload.reply_to = row.reply_to;
      if (media_refs?.length) frame.payload.media_refs = media_refs;
      await this.opts.request(frame);
      // The reducer removed the outbox row with the echo; this covers an echo it could not match.
      await db.outbox.delete(row.client_id);
      return 'sent';
    } catch (err) {
      if (cancel?.signal.aborted) return 'sent'; // discarded: its rows are gone, nothing to mark
      if (err instanceof ProtocolError) {
        if (err.code === 'rate_limited') return 'rate-limited';
        // The error's own words (describeError(code), or more precise ones such as a file's size and the limit).
        await markFailed(db, row.client_id, err.message || describeError(err.code));
        return 'failed';
      }
      if (err instanceof ConnectionLostError || !this.opts.isOnline()) return 'stop';
      if (err instanceof RequestTimeoutError) {
        // No answer on a live connection: try again; the gateway recognises the client_id.
        await markUnanswered(db, row.client_id, UNANSWERED);
        await this.nap(1000);
        return 'sent';
      }
      await markFailed(db, row.client_id, err instanceof Error ? err.message : String(err));
      return 'failed';
    } finally {
      cancel?.stop();
    }
  }
}

/** Aborts when the outbox row of `clientId` disappears (discarded in this tab or another). */
function watchDiscard(db: IrisDB, clientId: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const subscription = liveQuery(() => db.outbox.get(clientId)).subscribe({
    next: (row) => {
      if (!row) controller.abort(new Error('The send was cancelled.'));
    },
    error: () => undefined,
  });
  return { signal: controller.signal, stop: () => subscription.unsubscribe() };
}
