// One paired gateway, seen from the tab that holds the socket: the connection, the frame pipeline
// into the DB, sync after every hello.ack (spec README §8) and again when a frame carrying a live
// cursor failed to store (§16), the send outbox and media transfers.
import type { ClientFrame, HelloAckFrame, PushMode, ServerFrame } from '../protocol';
import type { IrisDB } from '../store/db';
import { laneScope } from '../store/models/channels';
import { markHistoryFailed } from '../store/models/lanes';
import { forgetCursor } from '../store/models/sync';
import { FramePipeline, type FlushScheduler } from './framePipeline';
import { GatewayConnection, type RequestOptions, type WebSocketConstructor } from './connection';
import type { PushHello } from './hello';
import type { ConnectionState } from './phases';
import type { WakeSource } from './wake';
import { gatewayTooLargeText } from '../lib/format';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import { Sender } from './sender';
import { realTimers, type Timers } from './timers';
import type { PullOptions, Transfers, UploadMeta } from './transfers';

/** How frames reach the DB: the store's reducer (one frame, or a batch), storing `cursor` with them. */
export interface Reducer {
  apply(db: IrisDB, frame: ServerFrame, ctx: { gateway: string; cursor?: number }): Promise<void>;
  applyBatch(
    db: IrisDB,
    frames: ServerFrame[],
    ctx: { gateway: string; cursor?: number; replay?: boolean },
  ): Promise<void>;
}

export interface GatewayConfig {
  url: string;
  token: string;
  deviceId: string;
  deviceName: string;
  push?: PushMode;
  /** Read at every hello: how this device wants to be woken now (see GatewayConnection). */
  pushHello?: () => Promise<PushHello>;
}

export interface SessionOptions {
  db: IrisDB;
  config: GatewayConfig;
  reducer: Reducer;
  WebSocketImpl?: WebSocketConstructor;
  timers?: Timers;
  random?: () => number;
  wakeSource?: WakeSource;
  requestTimeoutMs?: number;
  pingIntervalMs?: number;
  deadAfterMs?: number;
  /** How long a download may receive nothing before it counts as stalled (see Transfers). */
  pullStallMs?: number;
  /** How long the sync replay may take before the connection counts as broken. */
  syncTimeoutMs?: number;
  /** The first wait before syncing again after a frame failed to store (doubles up to 30 s). */
  resyncDelayMs?: number;
  flushScheduler?: FlushScheduler;
  /** The lane on screen: its newest history page is fetched after every sync. */
  activeLane?: () => string | undefined;
  /** History page size (1..200, spec README §9). */
  historyLimit?: number;
  onState?(state: ConnectionState): void;
  /** The sync replay's progress while a long one is stored; undefined once it is over. */
  onCatchUp?(progress: CatchUp | undefined): void;
  /** The connection's sync has gone unanswered for a while (true), or was answered or ended (false). */
  onSyncUnanswered?(unanswered: boolean): void;
  /** How long a sync goes unanswered before onSyncUnanswered(true) (default SYNC_SLOW_MS). */
  syncSlowMs?: number;
  /** A frame failed to apply (logged by the caller; the pipeline goes on). */
  onApplyError?(error: unknown, frame: ServerFrame | undefined): void;
  /** A streamed message's newest text, before it is stored (the pipeline's onText). */
  onText?(messageId: string, text: string | undefined): void;
}

/** How far a sync replay has been stored: frames stored of the frames the gateway had outboxed. */
export interface CatchUp {
  stored: number;
  total: number;
}

/** A replay shorter than this is over before a banner would be read: no progress is shown. */
const SHOW_CATCH_UP_FROM = 1000;

/**
 * A sync unanswered this long is said in the banner: until it is answered, sends, pages and searches
 * wait (a gateway may take that long with a big replay, or never answer; it is given syncTimeoutMs).
 */
const SYNC_SLOW_MS = 8000;

const RESYNC_FIRST_MS = 1000;
const RESYNC_MAX_MS = 30_000;
const isUnsupported = (err: unknown) => err instanceof ProtocolError && err.code === 'unsupported';
/** For the app's own refreshes (history pages, the directory, the catalog): their failures are not shown. */
const UNSEEN: RequestOptions = { unseen: true };

export class GatewaySession {
  readonly connection: GatewayConnection;
  readonly pipeline: FramePipeline;
  readonly sender: Sender;
  /** Media transfers: their code loads with the first upload or pull (most sessions have none). */
  private transferer: Transfers | undefined;
  private transfersLoad: Promise<Transfers> | undefined;
  private synced = false;
  private waiters: { resolve(): void; reject(e: unknown): void }[] = [];
  private epoch = 0;
  private stopped = false;
  private readonly timers: Timers;
  private resyncTimer: unknown;
  /** This connection's gateway refused `sync` as unsupported (protocol.py before its outbox): none is asked again. */
  private syncRefused = false;
  private resyncDelay: number;
  private syncSlowTimer: unknown;
  private syncUnanswered = false;
  /** The replay in progress: the frames it will bring (hello.ack's cursor minus ours) and how many are stored. */
  private catchUp: CatchUp | undefined;

  constructor(private readonly opts: SessionOptions) {
    const { db, config, reducer } = opts;
    const gateway = config.url;
    this.timers = opts.timers ?? realTimers;
    this.resyncDelay = opts.resyncDelayMs ?? RESYNC_FIRST_MS;
    const withCursor = (cursor: number | undefined) => (cursor === undefined ? { gateway } : { gateway, cursor });
    this.pipeline = new FramePipeline({
      apply: (frame, cursor) => reducer.apply(db, frame, withCursor(cursor)),
      applyBatch: (frames, cursor, replay) =>
        reducer.applyBatch(db, frames, { ...withCursor(cursor), ...(replay && { replay }) }),
      schedule: opts.flushScheduler,
      onError: opts.onApplyError ?? ((err) => console.error('iris: could not store a frame', err)),
      onCursorHeld: () => this.scheduleResync(),
      onText: opts.onText,
      onReplayStored: (frames) => this.replayStored(frames.length),
    });
    this.connection = new GatewayConnection({
      url: config.url,
      token: config.token,
      deviceId: config.deviceId,
      deviceName: config.deviceName,
      push: config.push,
      ...(config.pushHello && { pushHello: config.pushHello }),
      WebSocketImpl: opts.WebSocketImpl,
      ...(opts.timers && { timers: opts.timers }),
      ...(opts.random && { random: opts.random }),
      ...(opts.wakeSource && { wakeSource: opts.wakeSource }),
      ...(opts.requestTimeoutMs !== undefined && { requestTimeoutMs: opts.requestTimeoutMs }),
      ...(opts.pingIntervalMs !== undefined && { pingIntervalMs: opts.pingIntervalMs }),
      ...(opts.deadAfterMs !== undefined && { deadAfterMs: opts.deadAfterMs }),
      handlers: {
        opened: (ack) => void this.onOpened(ack),
        frame: (frame, request) => this.onFrame(frame, request),
        binary: (data) => this.transferer?.receiveBinary(data), // bytes come only for a pull, which loaded them
        closed: () => this.onClosed(),
        state: (s) => opts.onState?.(s),
      },
    });
    const isReady = () => this.synced && this.connection.state() === 'online';
    this.sender = new Sender({
      db,
      timers: opts.timers,
      random: opts.random,
      request: (frame, o) => this.request(frame, o),
      isOnline: isReady,
      uploadAttachment: (id, signal) => this.uploadAttachment(id, signal),
    });
  }

  /** The media transfers, loaded (once; again after a failed load) and told whether the connection is ready. */
  private transfers(): Promise<Transfers> {
    this.transfersLoad ??= import('./transfers').then(
      ({ Transfers }) => {
        const isReady = () => this.synced && this.connection.state() === 'online';
        const transfers = new Transfers({
          db: this.opts.db,
          timers: this.opts.timers,
          ...(this.opts.pullStallMs !== undefined && { pullStallMs: this.opts.pullStallMs }),
          link: {
            request: (frame, o) => this.request(frame, o),
            reconnect: (reason) => this.connection.reconnect(reason),
            notify: (frame, id) => this.connection.notify(frame, id),
            sendBinary: (data) => this.connection.sendBinary(data),
            bufferedAmount: () => this.connection.bufferedAmount(),
            isOnline: isReady,
          },
        });
        if (this.stopped) transfers.stop();
        else if (isReady()) transfers.connectionReady();
        this.transferer = transfers;
        return transfers;
      },
      (error: unknown) => {
        this.transfersLoad = undefined;
        throw error;
      },
    );
    return this.transfersLoad;
  }

  get url(): string {
    return this.opts.config.url;
  }

  /** What the app shows of the connection (plain: `onState` hears every change). */
  state(): ConnectionState {
    return this.connection.state();
  }

  /** Why the connection is not online, in words. */
  lastError(): string | undefined {
    return this.connection.lastError();
  }

  async start(): Promise<void> {
    await this.sender.recover();
    if (this.stopped) return;
    this.connection.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelResync();
    this.endSyncWait();
    this.sender.stop();
    this.transferer?.stop();
    this.connection.stop();
    await this.pipeline.flush();
    await this.sender.idle();
  }

  /** A request once the connection is online and synced (requests during the replay wait for it). */
  async request(frame: ClientFrame, options?: RequestOptions): Promise<ServerFrame> {
    await this.whenSynced();
    return this.connection.request(frame, options);
  }

  /** A frame without an answer (read.receipt, agent.stop…), once online and synced. */
  async notify(frame: ClientFrame): Promise<void> {
    await this.whenSynced();
    this.connection.notify(frame);
  }

  async upload(file: Blob, meta: UploadMeta): Promise<string> {
    return (await this.transfers()).upload(file, meta);
  }

  async pull(media_id: string, options?: PullOptions): Promise<void> {
    return (await this.transfers()).pull(media_id, options);
  }

  /**
   * Fetches a history page of `lane` (newest, or the one before `before`); stored by the reducer. A
   * failure at the gateway is recorded on the lane (LaneRow.historyFailed, which the list shows) and
   * the page asked for again later; a lost connection is none (the banner says so).
   */
  async fetchHistory(lane: string, before?: string): Promise<ServerFrame> {
    const scope = await laneScope(this.opts.db, lane);
    const frame: ClientFrame = {
      v: 1,
      type: 'history',
      chat_id: scope.chat_id,
      payload: { limit: this.opts.historyLimit ?? 50 },
    };
    if (scope.thread_id !== undefined) frame.thread_id = scope.thread_id;
    if (before !== undefined) frame.payload.before_message_id = before;
    try {
      return await this.request(frame, UNSEEN);
    } catch (err) {
      if (err instanceof ProtocolError || err instanceof RequestTimeoutError)
        await markHistoryFailed(this.opts.db, lane);
      throw err;
    }
  }

  /** Resolves when online and synced; rejects at once when offline. */
  whenSynced(): Promise<void> {
    if (this.connection.state() !== 'online') return Promise.reject(new ConnectionLostError());
    if (this.synced) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  get isSynced(): boolean {
    return this.synced && this.connection.state() === 'online';
  }

  // ---------------------------------------------------------------------------

  private async onOpened(ack: HelloAckFrame): Promise<void> {
    const epoch = ++this.epoch;
    const { db, config } = this.opts;
    this.synced = false;
    // This sync brings again whatever failed to store before it.
    this.cancelResync();
    this.syncRefused = false;
    this.resyncDelay = this.opts.resyncDelayMs ?? RESYNC_FIRST_MS;
    void this.pipeline.push(ack);
    this.pipeline.beginBatch();
    try {
      // The cursor the last stored frames carried (live, §16) or the last sync.done stored (§8).
      const stored = (await db.sync.get(config.url))?.cursor ?? 0;
      // A gateway whose newest cursor is behind ours lost its state: take everything it has.
      const ackCursor = typeof ack.payload.sync_cursor === 'number' ? ack.payload.sync_cursor : stored;
      const cursor = stored > ackCursor ? 0 : stored;
      // Its outbox is numbered anew, so our old cursor means nothing there: kept, it would stay ahead
      // (setCursor never moves back) and a later sync from it would skip the frames below it.
      if (stored > ackCursor) await forgetCursor(db, config.url);
      this.startCatchUp(ackCursor - cursor);
      this.watchSync();
      await this.connection.request(
        { v: 1, type: 'sync', payload: { cursor } },
        { timeoutMs: this.opts.syncTimeoutMs ?? 60_000 },
      );
      if (epoch === this.epoch) this.endSyncWait();
    } catch (err) {
      if (epoch === this.epoch) this.endSyncWait();
      this.endCatchUp();
      if (this.pipeline.batching) await this.pipeline.endBatch(undefined).catch(() => {}); // reported through the pipeline's onError
      if (epoch !== this.epoch) return;
      this.syncRefused = isUnsupported(err);
      if (err instanceof RequestTimeoutError) {
        // A gateway that cannot finish a replay is treated as a dead connection.
        this.connection.reconnect();
      }
      if (this.connection.state() !== 'online') return;
    }
    if (epoch !== this.epoch || this.connection.state() !== 'online') return;
    this.synced = true;
    for (const w of this.waiters.splice(0)) w.resolve();
    this.sender.kick();
    this.transferer?.connectionReady();
    const listed = (ack.payload as { channels?: unknown }).channels;
    void this.afterSync(!Array.isArray(listed) || listed.length === 0);
  }

  /** Starts the wait after which an unanswered sync is said (watched again by each connection's sync). */
  private watchSync(): void {
    this.endSyncWait();
    this.syncSlowTimer = this.timers.setTimeout(() => {
      this.syncSlowTimer = undefined;
      this.setSyncUnanswered(true);
    }, this.opts.syncSlowMs ?? SYNC_SLOW_MS);
  }

  private endSyncWait(): void {
    if (this.syncSlowTimer !== undefined) this.timers.clearTimeout(this.syncSlowTimer);
    this.syncSlowTimer = undefined;
    this.setSyncUnanswered(false);
  }

  private setSyncUnanswered(unanswered: boolean): void {
    if (this.syncUnanswered === unanswered) return;
    this.syncUnanswered = unanswered;
    this.opts.onSyncUnanswered?.(unanswered);
  }

  private startCatchUp(total: number): void {
    this.catchUp = total >= SHOW_CATCH_UP_FROM ? { stored: 0, total } : undefined;
    if (this.catchUp) this.opts.onCatchUp?.({ ...this.catchUp });
  }

  private replayStored(frames: number): void {
    if (!this.catchUp) return;
    // Live frames that arrive meanwhile join the replay: the count never passes the total.
    this.catchUp.stored = Math.min(this.catchUp.total, this.catchUp.stored + frames);
    this.opts.onCatchUp?.({ ...this.catchUp });
  }

  private endCatchUp(): void {
    if (!this.catchUp) return;
    this.catchUp = undefined;
    this.opts.onCatchUp?.(undefined);
  }

  /**
   * A frame carrying a live cursor failed to store (a full disk): the stored cursor stays before it,
   * and a sync from there brings it again, after a wait that doubles while it keeps failing.
   */
  private scheduleResync(): void {
    // Without sync nothing would come again: asked anyway, each refusal held live frames in a batch.
    if (this.stopped || this.syncRefused || this.resyncTimer !== undefined) return;
    const delay = this.resyncDelay;
    this.resyncDelay = Math.min(delay * 2, RESYNC_MAX_MS);
    this.resyncTimer = this.timers.setTimeout(() => {
      this.resyncTimer = undefined;
      void this.resync();
    }, delay);
  }

  private cancelResync(): void {
    if (this.resyncTimer === undefined) return;
    this.timers.clearTimeout(this.resyncTimer);
    this.resyncTimer = undefined;
  }

  /** The sync of a live connection: frames arriving meanwhile wait in the batch, as after hello.ack. */
  private async resync(): Promise<void> {
    if (!this.isSynced || this.pipeline.batching) return;
    const epoch = this.epoch;
    this.pipeline.beginBatch();
    try {
      const cursor = (await this.opts.db.sync.get(this.opts.config.url))?.cursor ?? 0;
      await this.connection.request(
        { v: 1, type: 'sync', payload: { cursor } },
        { timeoutMs: this.opts.syncTimeoutMs ?? 60_000 },
      );
    } catch (err) {
      if (this.pipeline.batching) await this.pipeline.endBatch(undefined).catch(() => {}); // reported through the pipeline's onError
      if (epoch === this.epoch && err instanceof RequestTimeoutError) this.connection.reconnect();
    }
  }

  /**
   * Replay is not history (spec README §8): the lane on screen gets its newest page, and the catalog is
   * refreshed. A hello.ack without `channels` (the schema does not require them) or with none (as
   * protocol.py's `hello_ack` writes them when not given) is followed by `channel.list`, so the
   * directory is never left empty or stale.
   */
  private async afterSync(askDirectory: boolean): Promise<void> {
    const lane = this.opts.activeLane?.();
    await Promise.allSettled([
      askDirectory ? this.request({ v: 1, type: 'channel.list', payload: {} }, UNSEEN) : Promise.resolve(),
      lane ? this.fetchHistory(lane) : Promise.resolve(),
      this.request({ v: 1, type: 'commands.catalog', payload: {} }, UNSEEN),
    ]);
  }

  private onFrame(frame: ServerFrame, request?: ClientFrame): Promise<void> | void {
    if (frame.type === 'pong') return;
    if (frame.type === 'sync.done') {
      if (!this.pipeline.batching) return;
      const cursor =
        typeof frame.payload.cursor === 'number' && Number.isSafeInteger(frame.payload.cursor)
          ? frame.payload.cursor
          : undefined;
      const stored = this.pipeline.endBatch(cursor);
      // The banner's progress ends once the replay's last chunk is stored (the request settles earlier).
      const catchUp = this.catchUp;
      void stored
        .finally(() => {
          if (this.catchUp === catchUp) this.endCatchUp();
        })
        .catch(() => {}); // reported through the pipeline's onError
      return stored;
    }
    if (frame.type === 'history' && request?.type === 'history' && frame.payload.before_message_id === undefined) {
      // Which message the page comes before: where its entries go when the gateway gives them no ts.
      const before = request.payload.before_message_id;
      if (before !== undefined) frame = { ...frame, payload: { ...frame.payload, before_message_id: before } };
    }
    if (frame.type === 'message' && request?.type === 'message.send') {
      // A gateway without the client_id extension: its echo is matched by the request id (spec README §5).
      const clientId = request.payload.client_id;
      if (clientId && frame.payload.client_id === undefined) {
        frame = { ...frame, payload: { ...frame.payload, client_id: clientId } };
      }
    }
    return this.pipeline.push(frame);
  }

  private onClosed(): void {
    this.synced = false;
    this.endCatchUp();
    this.epoch++;
    this.transferer?.connectionLost();
    if (this.pipeline.batching) void this.pipeline.endBatch(undefined).catch(() => {}); // reported through the pipeline's onError
    for (const w of this.waiters.splice(0)) w.reject(new ConnectionLostError());
  }

  private async uploadAttachment(mediaId: string, signal?: AbortSignal): Promise<string> {
    const { db } = this.opts;
    const [row, blob] = await Promise.all([db.media.get(mediaId), db.mediaBlobs.get(mediaId)]);
    if (!row || !blob) throw new Error('The attachment is no longer on this device.');
    try {
      return await this.upload(blob.blob, {
        media_ref: mediaId,
        kind: row.kind,
        mime: row.mime,
        filename: row.filename,
        ...(signal && { signal }),
      });
    } catch (err) {
      // The gateway's limit, in words: which file, its size and the limit (spec README §15).
      if (err instanceof ProtocolError && err.code === 'media_too_large')
        err.message = gatewayTooLargeText(row.filename, row.size, err.detail);
      throw err;
    }
  }
}
