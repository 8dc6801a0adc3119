// Applies server frames to the DB in arrival order, except that a burst of `message.update` frames
// for one message becomes at most one write per animation frame, fewer for a long text (spec README §7:
// each update carries the full text, so only the newest matters). Frames that arrive while a write is in progress are
// written together, in one transaction, when it ends. Each write stores, in its own transaction, the
// live cursor of the frames it carries (spec README §16) unless a frame before them failed to store.
// The newest text of a streamed message is also handed out (onText) at the pace of the paints (spaced
// as the writes are), so the tab can show it before the store has it; after each write of one, the next
// waits (bounded) for the screen's live reads, which a write to the rows they read makes start over.
import { laneOf, type ServerFrame } from '../protocol';
import { READS_MESSAGES } from '../store/reducer';
import { holdLiveReads, liveReadsSettled, type LiveReadsHold } from '../store/liveReads';

/** Schedules `run` for the next paint (or ~50 ms when hidden / no DOM). */
export type FlushScheduler = (run: () => void) => void;

const animationFrameScheduler: FlushScheduler = (run) => {
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number; document?: Document };
  if (g.requestAnimationFrame && g.document && !g.document.hidden) {
    // A hidden tab gets no animation frames; the timer guarantees the write happens anyway.
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      run();
    };
    g.requestAnimationFrame(once);
    setTimeout(once, 100);
  } else {
    setTimeout(run, 50);
  }
};

export interface PipelineOptions {
  /** Applies one frame in one transaction (the store's reducer); `cursor`, when given, is stored in it. */
  apply(frame: ServerFrame, cursor: number | undefined): Promise<void>;
  /**
   * Applies frames in one transaction; `cursor`, when given, is stored in that same transaction
   * (the sync replay's, spec README §8, or the frames' own live cursor, §16); `replay` says the frames
   * are that replay.
   */
  applyBatch(frames: ServerFrame[], cursor: number | undefined, replay?: boolean): Promise<void>;
  schedule?: FlushScheduler;
  /** Resolves once the screen's live reads have settled, or after `maxMs` (default: liveReadsSettled). */
  readsSettled?(maxMs: number): Promise<void>;
  /** Called when applying a frame failed (the pipeline keeps going). */
  onError?(error: unknown, frame: ServerFrame | undefined): void;
  /**
   * A frame carrying a cursor failed to store: the stored cursor stays before it, and it comes again
   * only with a sync from there (the caller asks for one).
   */
  onCursorHeld?(): void;
  /**
   * The newest text of a streamed message, given when its write is queued and while it waits (an update's
   * text, at most once per paint, spaced by its length as the writes are; a message.stop's `final_text` or
   * a `message`'s text at once), before it is stored, so
   * it can be painted without waiting for the store; `undefined` when that text will not be stored (its
   * write failed, the message was deleted). Display only: the store stays the truth.
   */
  onText?(messageId: string, text: string | undefined): void;
  /** Frames of a sync replay were stored (a chunk, in arrival order): the catch-up's progress. */
  onReplayStored?(frames: readonly ServerFrame[]): void;
}

/** Frames waiting for the chain, written in one transaction when their turn comes. */
interface FrameGroup {
  entries: { frame: ServerFrame; resolve: () => void; reject: (error: unknown) => void }[];
}

interface PendingUpdate {
  frame: ServerFrame;
  lane: string | undefined;
  waiters: (() => void)[];
  /** Its write is in the chain: newer updates still join it until that write starts. */
  queued: boolean;
  /** A finalizing frame made it obsolete: its queued write does nothing. */
  dropped: boolean;
  /** The text last given to onText for it. */
  published?: string;
  /**
   * The frame whose text was last looked at for onText: a newer frame's text is read (and its JSON
   * parsed, protocol/codec.ts) only when it is given, not on arrival.
   */
  publishedFrame?: ServerFrame;
  /** When (Date.now() ms) a newer text of it may be given while its write waits (see updateSpacingMs). */
  publishAt?: number;
}

/** At most this many frames per transaction: a flood must not become one long write. */
const MAX_GROUP = 100;

/**
 * A sync replay is stored in chunks of at most this many frames, while it arrives and after sync.done,
 * each in its own transaction, reduced in memory (store/reduce/batch.ts): a chunk's work stays well under
 * a 50 ms task, the screen shows the catch-up as it goes, and only the last chunk stores sync.done's cursor.
 * Chunks after sync.done were 4,000 frames (fewer transactions and re-reads of the screen), but a chunk
 * that large made long tasks the slicing cannot split: the commit's own task (Dexie tells every live query
 * of the change there, 130-280 ms at load 11-13) and reduce slices of 50-120 ms over its larger overlay.
 */
export const REPLAY_CHUNK = 1000;
/** The longest pause after a replay chunk for the screen's reads (a slow query must not stall the catch-up). */
const REPLAY_PAUSE_MAX_MS = 150;
/**
 * While a replay is stored, the screen's live reads are held (store/liveReads.ts): they read the first
 * chunk as soon as it is stored, then what the chunks stored at most this often, and once more when the
 * replay is stored; the banner counts every chunk meanwhile. Re-read after every chunk, they took 1.6 s of
 * a 7.7 s catch-up, and the chunks waited 2.2 s more behind them (issue 17). The first chunk shows at once:
 * on a fast machine a whole catch-up of a few thousand frames takes under this interval, and the lane
 * then showed none of what came in until its end.
 */
const REPLAY_SHOW_EVERY_MS = 1000;
/** A hold that no chunk renews for this long ends by itself (see holdLiveReads). */
const REPLAY_HOLD_LEASE_MS = 5000;
/**
 * The longest pause after the write of a streamed update for the screen's reads. A Dexie live query that
 * a write to what it reads overtakes starts again without giving its result: written back to back, a
 * streamed row starved the lane's read of it, and under load (each read 0.3-1 s) a 5,000-update reply
 * never showed its bubble until its stop was stored (issue 17). Meanwhile the newest text is given to
 * the screen at the pace of the paints (onText), not of the writes.
 */
const UPDATE_PAUSE_MAX_MS = 500;

/**
 * Each write of a streamed message rewrites its whole text, and every write wakes the bubble's reads
 * and render: past this length, the writes of one message are spaced by 1 ms per 1,000 characters
 * (16 ms at 16 KB, 150 ms at 150 KB, at most MAX_SPACING_MS), so a growing answer costs a bounded share
 * of the main thread instead of a write and a re-read of 150 KB per frame. The final text never waits:
 * a message.stop (or message) is written at once and drops the held update.
 */
const SPACED_FROM_CHARS = 16_000;
const MAX_SPACING_MS = 200;

/** How long after one write of a streamed message its next may start (0: the next animation frame). */
export function updateSpacingMs(chars: number): number {
  return chars < SPACED_FROM_CHARS ? 0 : Math.min(MAX_SPACING_MS, Math.ceil(chars / 1000));
}

/** Frames that make an earlier update of the same message obsolete. */
const FINALIZING = new Set(['message', 'message.stop']);

export class FramePipeline {
  private chain: Promise<void> = Promise.resolve();
  private readonly updates = new Map<string, PendingUpdate>();
  private flushScheduled = false;
  /** Per streamed message: when its next update may be written (Date.now() ms), see updateSpacingMs. */
  private readonly nextWriteAt = new Map<string, number>();
  /** Per streamed message: the text last given to onText, until it is stored or taken back. */
  private readonly given = new Map<string, string>();
  private batch: ServerFrame[] | null = null;
  private batchWaiters: (() => void)[] = [];
  /** A chunk of the replay is in the chain: the next waits for it (frames meanwhile join the batch). */
  private replayChunkQueued = false;
  /**
   * The replay being collected. A chunk of it that failed to store is lost until a sync from the
   * stored cursor, so its sync.done cursor must not be stored.
   */
  private replay: { failed: boolean } = { failed: false };
  /** The screen's reads held while the replay is stored, and when they last read (performance.now(); -Infinity: not yet). */
  private replayHold: { hold: LiveReadsHold; shownAt: number } | null = null;
  /** The group at the end of the chain that has not started: frames arriving now join it. */
  private openGroup: FrameGroup | null = null;
  /**
   * A frame carrying a cursor failed to store: later writes store no cursor (it would pass that
   * frame) until a complete sync replay, which brings it again, has been stored.
   */
  private cursorHeld = false;
  private readonly schedule: FlushScheduler;

  constructor(private readonly opts: PipelineOptions) {
    this.schedule = opts.schedule ?? animationFrameScheduler;
  }

  /** Queues a frame; resolves once it is stored (or superseded by a newer update of its message). */
  push(frame: ServerFrame): Promise<void> {
    if (this.batch) {
      this.batch.push(frame);
      const stored = new Promise<void>((resolve) => this.batchWaiters.push(resolve));
      this.storeReplayChunk();
      return stored;
    }
    if (frame.type === 'message.update') return this.holdUpdate(frame);
    // A frame whose handler reads or replaces message rows (the store's rules say which) finds held
    // updates of its lane written before it. Any other frame (typing, tool and picker frames, unknown
    // types…) leaves them waiting, so a stream that mixes them with updates is still coalesced;
    // writing each update before each of them made every update a write of its own.
    const superseded = READS_MESSAGES.has(frame.type) ? this.settleUpdatesBefore(frame) : [];
    const finalText = FINALIZING.has(frame.type) ? finalTextOf(frame) : undefined;
    if (finalText) this.giveText(finalText.id, finalText.text);
    const stored = this.enqueueFrame(frame);
    if (finalText)
      void stored.then(
        () => this.given.get(finalText.id) === finalText.text && this.given.delete(finalText.id),
        () => this.forgetText(finalText.id, finalText.text),
      );
    if (superseded.length) void stored.finally(() => superseded.forEach((w) => w())).catch(() => {}); // a failed write is reported through onError
    return stored;
  }

  /** From now until endBatch(), frames are collected instead of applied (the sync replay). */
  beginBatch(): void {
    this.flushAll();
    if (!this.batch) this.replay = { failed: false };
    this.batch ??= [];
  }

  /**
   * Applies the collected frames in one transaction, storing `cursor` (sync.done's) with them. Without
   * one (the replay was cut short or refused) no cursor is stored, and none after it until a complete
   * replay: live frames that arrived before the replay carry newer cursors than the frames it missed.
   */
  endBatch(cursor: number | undefined): Promise<void> {
    const frames = this.batch ?? [];
    const waiters = this.batchWaiters;
    const replay = this.replay;
    this.batch = null;
    this.batchWaiters = [];
    if (cursor === undefined) this.cursorHeld = true;
    // Chunks before the last store no cursor; the last stores sync.done's, unless a chunk was lost.
    for (let at = 0; at + REPLAY_CHUNK < frames.length; at += REPLAY_CHUNK)
      void this.enqueueReplayChunk(frames.slice(at, at + REPLAY_CHUNK), []).catch(() => {}); // a failure reaches onError and the replay
    const last = frames.slice(Math.floor(Math.max(0, frames.length - 1) / REPLAY_CHUNK) * REPLAY_CHUNK);
    const write = async () => {
      if (replay.failed) {
        cursor = undefined;
        this.cursorHeld = true;
      }
      try {
        await this.opts.applyBatch(last, cursor, true);
      } catch (error) {
        if (cursor !== undefined || last.some(carriesCursor)) this.holdCursor();
        throw error;
      } finally {
        this.replayHold?.hold.release();
        this.replayHold = null;
      }
      if (last.length) this.opts.onReplayStored?.(last);
      // Stored with a complete replay, everything up to `cursor` is here: the hold is over.
      if (cursor !== undefined) this.cursorHeld = false;
      // A lost chunk comes again only with a sync from the stored cursor.
      else if (replay.failed) this.opts.onCursorHeld?.();
    };
    const done = this.enqueue(write, undefined);
    // The caller gets `done` itself; this copy only wakes the waiters (its failure reaches onError).
    void done.finally(() => waiters.forEach((w) => w())).catch(() => {});
    return done;
  }

  /** While the replay arrives: stores a full chunk of it once the one before has been stored. */
  private storeReplayChunk(): void {
    if (!this.batch || this.batch.length < REPLAY_CHUNK || this.replayChunkQueued) return;
    const frames = this.batch.splice(0, REPLAY_CHUNK);
    const waiters = this.batchWaiters.splice(0, REPLAY_CHUNK);
    this.replayChunkQueued = true;
    void this.enqueueReplayChunk(frames, waiters)
      .catch(() => {}) // reported through onError, and remembered by the replay
      .finally(() => {
        this.replayChunkQueued = false;
        this.storeReplayChunk();
      });
  }

  /**
   * A chunk of the replay, without a cursor; then a pause until the screen's live queries have read what
   * it brought (bounded), so the lane shows the stored part while the rest is written.
   */
  private enqueueReplayChunk(frames: ServerFrame[], waiters: (() => void)[]): Promise<void> {
    const replay = this.replay;
    const write = async () => {
      // Never shown yet: the first chunk stored is shown at once.
      this.replayHold ??= { hold: holdLiveReads(REPLAY_HOLD_LEASE_MS), shownAt: -Infinity };
      try {
        await this.opts.applyBatch(frames, undefined, true);
        this.opts.onReplayStored?.(frames);
      } catch (error) {
        replay.failed = true;
        throw error;
      } finally {
        waiters.forEach((w) => w());
      }
      const held = this.replayHold;
      if (held && performance.now() - held.shownAt >= REPLAY_SHOW_EVERY_MS) {
        held.hold.wake();
        held.shownAt = performance.now();
      }
      await liveReadsSettled(REPLAY_PAUSE_MAX_MS);
    };
    return this.enqueue(write, undefined);
  }

  get batching(): boolean {
    return this.batch !== null;
  }

  /** Writes every held update now; resolves when everything queued so far is stored. */
  flush(): Promise<void> {
    this.flushAll();
    return this.chain;
  }

  private holdUpdate(frame: ServerFrame): Promise<void> {
    const id = messageIdOf(frame);
    if (id === undefined) return Promise.resolve(); // an update of nothing: ignored
    return new Promise<void>((resolve) => {
      const held = this.updates.get(id);
      if (held) {
        held.frame = frame;
        held.waiters.push(resolve);
      } else {
        this.updates.set(id, { frame, lane: laneOf(frame), waiters: [resolve], queued: false, dropped: false });
      }
      this.scheduleFlush();
    });
  }

  /** Schedules a write of the held updates for the next paint once the first of them is due. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      this.flushDue();
    };
    const now = Date.now();
    let wait = Infinity;
    for (const [id, held] of this.updates) {
      if (!held.queued) wait = Math.min(wait, (this.nextWriteAt.get(id) ?? 0) - now);
      // Its write waits in the chain: its newer text is still given to the screen.
      else if (held.frame !== held.publishedFrame) wait = Math.min(wait, (held.publishAt ?? 0) - now);
    }
    if (wait === Infinity) {
      this.flushScheduled = false; // every held update is already in the chain
      return;
    }
    if (wait > 0) setTimeout(() => this.schedule(run), wait);
    else this.schedule(run);
  }

  /** Queues (unsealed) the writes of the held updates that are due; the others wait for a later flush. */
  private flushDue(): void {
    const now = Date.now();
    let waiting = false;
    for (const [id, held] of [...this.updates]) {
      if (held.queued ? (held.publishAt ?? 0) <= now : (this.nextWriteAt.get(id) ?? 0) <= now)
        this.writeHeld(id, held, false);
      else waiting = true;
    }
    if (waiting) this.scheduleFlush();
  }

  /**
   * Keeps order as if every update had been applied at once: held updates of the frame's lane are
   * written before it, except those its own message makes obsolete (the final text replaces them);
   * returns the waiters of the obsolete ones, settled once the frame itself is stored.
   */
  private settleUpdatesBefore(frame: ServerFrame): (() => void)[] {
    const superseded: (() => void)[] = [];
    if (this.updates.size === 0) return superseded;
    const obsolete = new Set<string>();
    if (FINALIZING.has(frame.type)) {
      const id = messageIdOf(frame);
      if (id !== undefined) obsolete.add(id);
    } else if (frame.type === 'message.deleted') {
      for (const id of frame.payload.message_ids ?? []) obsolete.add(String(id));
    }
    for (const id of obsolete) this.nextWriteAt.delete(id);
    if (frame.type === 'message.deleted')
      for (const id of obsolete) {
        this.given.delete(id);
        this.opts.onText?.(id, undefined);
      }
    const lane = laneOf(frame);
    for (const [id, held] of [...this.updates]) {
      if (obsolete.has(id)) {
        this.updates.delete(id);
        held.dropped = true;
        superseded.push(...held.waiters.splice(0));
      } else if (lane === undefined || held.lane === lane) {
        this.writeHeld(id, held, true);
      }
    }
    return superseded;
  }

  /** Queues a write of every held update; `seal` also makes later updates wait for a write of their own. */
  private flushAll(seal = true): void {
    for (const [id, held] of [...this.updates]) this.writeHeld(id, held, seal);
  }

  /**
   * Queues one write of a held update. Until that write starts, newer updates of the message replace
   * its frame instead of queueing writes of their own: when writes are slower than frames arrive, the
   * chain holds at most one write per message rather than one per animation frame (a fast stream left
   * a backlog that painted the final text over a second late). Sealed, the entry takes no more updates:
   * a frame queued after it must not be overtaken by text that arrived after that frame.
   */
  private writeHeld(id: string, held: PendingUpdate, seal: boolean): void {
    if (seal && this.updates.get(id) === held) this.updates.delete(id);
    // Its newest text is on its way to the store: show it now. A queued write still takes newer frames;
    // their text is given at the next paints while it waits (spaced by its length, as the writes are),
    // and again when it starts.
    this.publish(id, held);
    if (held.queued) return;
    held.queued = true;
    const write = () => {
      if (this.updates.get(id) === held) this.updates.delete(id);
      if (!held.dropped) this.publish(id, held); // what is stored is never newer than what was given
      this.spaceNextWrite(id, held);
      // No cursor: updates are not outboxed (spec README §8), and any of them may be skipped (§7).
      if (held.dropped) return Promise.resolve();
      const settled = this.opts.readsSettled ?? liveReadsSettled;
      return this.opts.apply(held.frame, undefined).then(() => settled(UPDATE_PAUSE_MAX_MS));
    };
    void this.enqueue(write, held.frame)
      .catch((error: unknown) => {
        if (!held.dropped) this.forgetText(id, textOf(held.frame));
        throw error;
      })
      .finally(() => held.waiters.splice(0).forEach((w) => w()))
      .catch(() => {}); // reported through onError
  }

  private publish(id: string, held: PendingUpdate): void {
    if (held.frame === held.publishedFrame) return;
    held.publishedFrame = held.frame;
    const text = textOf(held.frame);
    if (text === undefined || text === held.published) return;
    held.published = text;
    held.publishAt = Date.now() + updateSpacingMs(text.length);
    this.giveText(id, text);
  }

  private giveText(id: string, text: string): void {
    if (!this.opts.onText) return;
    // Kept only to take a text back; a stream that never ended must not stay here forever.
    if (this.given.size >= MAX_GROUP && !this.given.has(id)) this.given.clear();
    this.given.set(id, text);
    this.opts.onText(id, text);
  }

  /** A text given by onText will not be stored: it is taken back (unless a newer one replaced it since). */
  private forgetText(id: string, text: string | undefined): void {
    if (text === undefined || this.given.get(id) !== text) return;
    this.given.delete(id);
    this.opts.onText?.(id, undefined);
  }

  private spaceNextWrite(id: string, held: PendingUpdate): void {
    const text = (held.frame.payload as { text?: unknown }).text;
    const spacing = held.dropped || typeof text !== 'string' ? 0 : updateSpacingMs(text.length);
    if (spacing === 0) {
      this.nextWriteAt.delete(id);
      return;
    }
    // A message whose stream never ended must not stay here forever: only the few newest are kept.
    if (this.nextWriteAt.size >= MAX_GROUP) this.nextWriteAt.clear();
    this.nextWriteAt.set(id, Date.now() + spacing);
  }

  /**
   * Queues a frame's write. While the chain is busy, frames collect in one group (a stream's tool and
   * busy frames each cost a transaction and a re-render otherwise, and fell behind the stream); a
   * group that fails as a whole is retried frame by frame, so one bad write loses only its own frame.
   */
  private enqueueFrame(frame: ServerFrame): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.openGroup && this.openGroup.entries.length < MAX_GROUP) {
        this.openGroup.entries.push({ frame, resolve, reject });
        return;
      }
      const group: FrameGroup = { entries: [{ frame, resolve, reject }] };
      // writeGroup settles each entry itself, and enqueue reports a failure through onError.
      void this.enqueue(() => this.writeGroup(group), undefined).catch(() => {});
      this.openGroup = group;
    });
  }

  private async writeGroup(group: FrameGroup): Promise<void> {
    if (this.openGroup === group) this.openGroup = null;
    const { entries } = group;
    if (entries.length > 1) {
      try {
        const frames = entries.map((e) => e.frame);
        await this.opts.applyBatch(frames, this.liveCursor(frames));
        for (const e of entries) e.resolve();
        return;
      } catch {
        // One by one below: each frame's own failure is reported with it.
      }
    }
    for (const e of entries) {
      try {
        // Read per frame: once one fails, the frames after it store no cursor.
        await this.opts.apply(e.frame, this.liveCursor([e.frame]));
        e.resolve();
      } catch (error) {
        if (carriesCursor(e.frame)) this.holdCursor();
        this.opts.onError?.(error, e.frame);
        e.reject(error);
      }
    }
  }

  /**
   * The cursor to store with `frames` (written in arrival order after every frame before them): the
   * newest they carry, unless a frame before them failed to store.
   */
  private liveCursor(frames: readonly ServerFrame[]): number | undefined {
    let newest: number | undefined;
    for (const f of frames) if (carriesCursor(f)) newest = Math.max(newest ?? 0, f.cursor!);
    if (!this.cursorHeld) return newest;
    // Held, and frames with cursors keep coming: only a sync from the stored cursor moves it again.
    if (newest !== undefined) this.opts.onCursorHeld?.();
    return undefined;
  }

  private holdCursor(): void {
    this.cursorHeld = true;
    this.opts.onCursorHeld?.();
  }

  private enqueue(run: () => Promise<void>, frame: ServerFrame | undefined): Promise<void> {
    // Anything queued after the open group must stay after the frames that join it later.
    this.openGroup = null;
    const result = this.chain.then(run);
    // The chain survives a failed write; the caller of push() still sees the failure.
    this.chain = result.catch((err) => this.opts.onError?.(err, frame));
    return result;
  }
}

/** Whether the frame carries a live cursor the pipeline stores (an update's is ignored: see writeHeld). */
function carriesCursor(frame: ServerFrame): boolean {
  return frame.type !== 'message.update' && typeof frame.cursor === 'number';
}

function textOf(frame: ServerFrame): string | undefined {
  const text = (frame.payload as { text?: unknown }).text;
  return typeof text === 'string' ? text : undefined;
}

/** The text a finalizing frame gives its message (none for a message.stop without `final_text`). */
function finalTextOf(frame: ServerFrame): { id: string; text: string } | undefined {
  const id = messageIdOf(frame);
  const p = frame.payload as { final_text?: unknown; text?: unknown };
  const text = frame.type === 'message.stop' ? p.final_text : p.text;
  return id !== undefined && typeof text === 'string' ? { id, text } : undefined;
}

function messageIdOf(frame: ServerFrame): string | undefined {
  const id = (frame.payload as { message_id?: unknown }).message_id;
  return typeof id === 'string' ? id : undefined;
}
