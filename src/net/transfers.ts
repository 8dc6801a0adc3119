// Media bytes over the socket (spec README §10): one upload and one pull at a time, each queued.
// A dropped connection fails an upload cleanly (nothing half-sent is reused) and puts a pull back at
// the head of its queue, to start again from the beginning once the connection is ready.
import type { ClientFrame, MediaKind, ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import type { MediaRow } from '../store/schema';
import type { RequestOptions } from './connection';
import { ConnectionLostError, RequestTimeoutError } from './errors';
import { realTimers, sleep, type Timers } from './timers';
import { servedMime } from '../protocol/mime';
import { randomId } from '../lib/randomId';
import { sha256Hex } from '../lib/sha256';

const CHUNK_BYTES = 256 * 1024;
const STALLED_TEXT = 'The gateway stopped sending this file.';

/** What transfers need from the connection. */
interface TransferLink {
  request(frame: ClientFrame, options?: RequestOptions): Promise<ServerFrame>;
  notify(frame: ClientFrame, id?: number): void;
  sendBinary(data: ArrayBuffer | ArrayBufferView): void;
  bufferedAmount(): number;
  isOnline(): boolean;
  /** Drops the socket and connects again. */
  reconnect(reason: string): void;
}

export interface UploadMeta {
  /** The ref the message will name in media_refs; a new UUID when absent. */
  media_ref?: string;
  kind: MediaKind;
  mime?: string;
  filename: string;
  /** 0..1 as bytes leave the socket. */
  onProgress?(fraction: number): void;
  /** Cancels the upload: no more bytes are sent and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface PullOptions {
  onProgress?(fraction: number): void;
}

export interface TransfersOptions {
  db: IrisDB;
  link: TransferLink;
  timers?: Timers;
  chunkBytes?: number;
  /** Chunks wait while more than this is queued on the socket (keeps memory and progress honest). */
  highWaterBytes?: number;
  /** How long to wait for the upload ack once the last byte is sent. */
  ackTimeoutMs?: number;
  /** How long a pull may receive nothing (no bytes, no end) before it counts as stalled. */
  pullStallMs?: number;
}

interface PullJob {
  media_id: string;
  onProgress?: (fraction: number) => void;
  resolve(): void;
  reject(error: unknown): void;
}

interface OpenPull {
  job: PullJob;
  chunks: ArrayBuffer[];
  received: number;
  size: number;
  lastWritten: number;
  /** Bytes came: the pull is alive (restarts its stall wait). */
  alive(): void;
}

export class Transfers {
  private readonly timers: Timers;
  private readonly chunkBytes: number;
  private readonly highWater: number;
  private readonly ackTimeoutMs: number;
  private readonly pullStallMs: number;
  private uploadChain: Promise<unknown> = Promise.resolve();
  private readonly pulls: PullJob[] = [];
  private pulling: OpenPull | null = null;
  private pullRunning = false;
  private ready = false;
  private stopped = false;

  constructor(private readonly opts: TransfersOptions) {
    this.timers = opts.timers ?? realTimers;
    this.chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
    this.highWater = opts.highWaterBytes ?? 4 * CHUNK_BYTES;
    this.ackTimeoutMs = opts.ackTimeoutMs ?? 60_000;
    this.pullStallMs = opts.pullStallMs ?? 60_000;
  }

  /** Uploads `file`; resolves with its media_ref after the gateway's media.upload.ack. */
  upload(file: Blob, meta: UploadMeta): Promise<string> {
    const run = () => this.runUpload(file, meta);
    const result = this.uploadChain.then(run, run);
    this.uploadChain = result.catch(() => undefined); // only orders the uploads: the caller gets `result`'s error
    return result;
  }

  /** Downloads a media item into mediaBlobs and marks its row ready; retried across reconnects. */
  pull(media_id: string, options: PullOptions = {}): Promise<void> {
    if (this.stopped) return Promise.reject(new ConnectionLostError('The client is stopped.'));
    return new Promise<void>((resolve, reject) => {
      this.pulls.push({ media_id, onProgress: options.onProgress, resolve, reject });
      void this.runPulls();
    });
  }

  /** Bytes from the gateway: they belong to the open pull (spec README §10). */
  receiveBinary(data: ArrayBuffer): void {
    const open = this.pulling;
    if (!open) return; // stray bytes: no transfer open in this direction
    open.chunks.push(data);
    open.received += data.byteLength;
    open.alive();
    const fraction = open.size > 0 ? Math.min(1, open.received / open.size) : 0;
    open.job.onProgress?.(fraction);
    if (fraction - open.lastWritten >= 0.1) {
      open.lastWritten = fraction;
      void this.opts.db.media.update(open.job.media_id, { progress: fraction }).catch(() => {}); // a lost mark: the next one or the end rewrites it
    }
  }

  /** The connection is online and synced: queued pulls may run. */
  connectionReady(): void {
    this.ready = true;
    void this.runPulls();
  }

  /** The connection dropped: the open request already rejects; hold the queue until ready again. */
  connectionLost(): void {
    this.ready = false;
  }

  /** Fails every queued pull (the client is shutting down). */
  stop(): void {
    this.stopped = true;
    this.ready = false;
    for (const job of this.pulls.splice(0)) job.reject(new ConnectionLostError('The client is stopped.'));
  }

  // ---------------------------------------------------------------------------

  private async runUpload(file: Blob, meta: UploadMeta): Promise<string> {
    const { link } = this.opts;
    if (!link.isOnline()) throw new ConnectionLostError();
    if (meta.signal?.aborted) throw meta.signal.reason ?? new Error('The upload was cancelled.');
    const media_ref = meta.media_ref ?? randomId();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const sha256 = await sha256Hex(bytes);
    const abort = new AbortController();
    let uploadId: number | undefined;
    let failure: unknown;
    let markSent!: () => void;
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const ack = link.request(
      {
        v: 1,
        type: 'media.upload.start',
        payload: {
          media_ref,
          kind: meta.kind,
          mime: meta.mime || file.type || 'application/octet-stream',
          size: bytes.byteLength,
          filename: meta.filename,
        },
      },
      {
        timeoutMs: null,
        signal: abort.signal,
        onSent: (id) => {
          uploadId = id;
          markSent();
        },
      },
    );
    // An early error (media_too_large, a lost connection) stops the bytes at once.
    ack.catch((err: unknown) => (failure ??= err));
    // A cancel also ends the wait for the ack (the gateway drops an upload that never ends).
    const onCancel = () => abort.abort(meta.signal?.reason ?? new Error('The upload was cancelled.'));
    meta.signal?.addEventListener('abort', onCancel, { once: true });
    // No byte may precede the start frame (the request may wait for the sync to finish).
    await Promise.race([sent, ack.catch(() => undefined)]); // its error is kept in `failure` above
    const progress = new ProgressWriter(this.opts.db, media_ref, meta.onProgress);
    const cancelled = () => {
      if (meta.signal?.aborted) failure ??= meta.signal.reason ?? new Error('The upload was cancelled.');
    };
    for (let offset = 0; offset < bytes.byteLength; offset += this.chunkBytes) {
      while (failure === undefined && link.bufferedAmount() > this.highWater) await sleep(this.timers, 10);
      cancelled();
      if (failure !== undefined) break;
      const chunk = bytes.subarray(offset, Math.min(bytes.byteLength, offset + this.chunkBytes));
      try {
        link.sendBinary(chunk);
      } catch (err) {
        failure ??= err;
        break;
      }
      progress.report((offset + chunk.byteLength) / bytes.byteLength);
      // Let the socket and incoming frames breathe between chunks.
      await Promise.resolve();
    }
    cancelled();
    if (failure === undefined) {
      try {
        link.notify({ v: 1, type: 'media.upload.end', payload: { media_ref, sha256 } }, uploadId);
      } catch (err) {
        failure = err;
      }
    }
    if (failure !== undefined) {
      meta.signal?.removeEventListener('abort', onCancel);
      abort.abort(failure);
      await ack.catch(() => undefined); // `failure` is what is thrown
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the ack's own rejection, passed on as it came
      throw failure;
    }
    const timer = this.timers.setTimeout(
      () => abort.abort(new RequestTimeoutError('media.upload.end', this.ackTimeoutMs)),
      this.ackTimeoutMs,
    );
    let answer: ServerFrame;
    try {
      answer = await ack;
    } finally {
      this.timers.clearTimeout(timer);
      meta.signal?.removeEventListener('abort', onCancel);
    }
    // protocol.py's ack carries `ok` and the ref to name in media_refs (the gateway's, when it has its own).
    const acked = answer.type === 'media.upload.ack' ? answer.payload : undefined;
    if (acked?.ok === false) throw new Error(`The gateway did not keep ${meta.filename}.`);
    progress.report(1);
    return typeof acked?.media_ref === 'string' && acked.media_ref !== '' ? acked.media_ref : media_ref;
  }

  private async runPulls(): Promise<void> {
    if (this.pullRunning) return;
    this.pullRunning = true;
    try {
      while (this.ready && !this.stopped && this.pulls.length > 0 && this.opts.link.isOnline()) {
        const job = this.pulls[0]!;
        const outcome = await this.runPull(job);
        if (outcome === 'retry') break; // stays at the head of the queue until connectionReady()
        this.pulls.shift();
      }
    } finally {
      this.pullRunning = false;
    }
  }

  private async runPull(job: PullJob): Promise<'done' | 'retry'> {
    const { db, link } = this.opts;
    const row = await db.media.get(job.media_id);
    if (row?.state === 'ready' && (await db.mediaBlobs.get(job.media_id))) {
      job.resolve();
      return 'done';
    }
    // A pull has no deadline (a big file on a slow link takes its time), but one that receives nothing
    // for a while is stalled: it would hold every download after it. It fails, and the socket goes too,
    // so that its late bytes cannot be taken for the next file's (binary frames name no transfer, §10).
    const stall = new AbortController();
    let stallTimer: unknown;
    const alive = () => {
      this.timers.clearTimeout(stallTimer);
      stallTimer = this.timers.setTimeout(() => {
        stall.abort(new Error(STALLED_TEXT));
        link.reconnect(STALLED_TEXT);
      }, this.pullStallMs);
    };
    this.pulling = { job, chunks: [], received: 0, size: row?.size ?? 0, lastWritten: 0, alive };
    await db.media.update(job.media_id, { state: 'downloading', progress: 0, error: undefined });
    let end: ServerFrame;
    try {
      alive();
      end = await link.request(
        { v: 1, type: 'media.pull', payload: { media_id: job.media_id } },
        { timeoutMs: null, signal: stall.signal },
      );
    } catch (err) {
      this.pulling = null;
      if (err instanceof ConnectionLostError && !this.stopped) {
        // Nothing half-stored: the bytes so far are dropped and the pull starts over later.
        this.ready = false;
        await db.media.update(job.media_id, {
          state: row?.state === 'downloading' ? 'remote' : (row?.state ?? 'remote'),
          progress: 0,
        });
        return 'retry';
      }
      await this.failPull(job, err instanceof Error ? err.message : String(err));
      job.reject(err);
      return 'done';
    } finally {
      this.timers.clearTimeout(stallTimer);
    }
    const open = this.pulling;
    this.pulling = null;
    if (end.type !== 'media.pull.end' || !end.payload.ok) {
      const error = new Error('The gateway could not send this file.');
      await this.failPull(job, error.message);
      job.reject(error);
      return 'done';
    }
    // The offer said how big the file is: other bytes are a broken file, not the file (a size of 0
    // means the size was never known, as for a ref without one).
    if (open.size > 0 && open.received !== open.size) {
      const error = new Error(`The file arrived with ${open.received} bytes instead of ${open.size}.`);
      await this.failPull(job, error.message);
      job.reject(error);
      return 'done';
    }
    // Typed by the app's rule, not the gateway's word: a pulled SVG or HTML file is bytes to save.
    const blob = new Blob(open.chunks, { type: servedMime(row?.mime) });
    try {
      await this.store(job, row, blob);
    } catch (err) {
      // Storage full (the media module evicts and asks again) or the DB went away: the pull fails, never hangs.
      await this.failPull(job, 'The file could not be stored on this device.');
      job.reject(err);
      return 'done';
    }
    job.onProgress?.(1);
    job.resolve();
    return 'done';
  }

  private async store(job: PullJob, row: MediaRow | undefined, blob: Blob): Promise<void> {
    const { db } = this.opts;
    await db.transaction('rw', db.media, db.mediaBlobs, async () => {
      await db.mediaBlobs.put({ media_id: job.media_id, blob });
      const now = Date.now();
      if (row) {
        await db.media.update(job.media_id, { state: 'ready', progress: 1, lastUsed: now, error: undefined });
      } else {
        const fresh: MediaRow = {
          media_id: job.media_id,
          kind: 'document',
          mime: blob.type,
          size: blob.size,
          filename: job.media_id,
          state: 'ready',
          progress: 1,
          lastUsed: now,
        };
        await db.media.put(fresh);
      }
    });
  }

  private async failPull(job: PullJob, message: string): Promise<void> {
    await this.opts.db.media
      .update(job.media_id, { state: 'failed', progress: 0, error: message })
      .catch((err: unknown) => console.warn('iris: could not mark a download failed', err));
  }
}

/** Reports upload progress to the callback each chunk and to the media row every 10%. */
class ProgressWriter {
  private written = 0;
  constructor(
    private readonly db: IrisDB,
    private readonly media_id: string,
    private readonly callback?: (fraction: number) => void,
  ) {}

  report(fraction: number): void {
    this.callback?.(fraction);
    if (fraction - this.written >= 0.1 || (fraction === 1 && this.written < 1)) {
      this.written = fraction;
      void this.db.media.update(this.media_id, { progress: fraction }).catch(() => {}); // a lost mark: the next one or the end rewrites it
    }
  }
}
