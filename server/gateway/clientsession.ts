// One client's session on one WebSocket: pairing first (spec README §3), then rate-limited dispatch of
// text frames and routing of binary frames to the open media transfer. Malformed input is ignored,
// never fatal. The router is passed in (index.ts), so the handlers it calls can know this class
// without importing it back.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import {
  BATCH_TYPE,
  CLIENT_FRAME_TYPES,
  encodeFrame,
  parseFrame,
  type ClientFrame,
  type ErrorCode,
  type ServerFrame,
} from '../../src/protocol';
import { statusFrame } from './agentstatus';
import { tokenMatches } from './auth';
import type { GatewayContext } from './context';
import { MediaSession } from './media';
import type { Requester } from './peer';
import { quirkFrames, withoutCursor } from './quirks';
import { TokenBucket } from './ratelimit';

const HELLO_TIMEOUT_MS = 10_000;
/** Before hello nobody is known: frames are small (a hello with a push subscription is ~1 KiB). */
const PRE_HELLO_MAX_BYTES = 16 * 1024;
/** Coalescable frames are skipped while this much is queued on the socket (spec: coalescable under backpressure). */
const BACKPRESSURE_BYTES = 4 * 1024 * 1024;
/** Frames of a replay written to the socket at once (a few tens of KiB). */
const SEND_BATCH = 256;
/** A replay batch (`frames`, for a device that asked for them) holds at most this much; a bigger frame goes alone. */
const BATCH_MAX_BYTES = 256 * 1024;
const clientTypes: ReadonlySet<string> = new Set(CLIENT_FRAME_TYPES);

/** Hands a paired session's request to its handler (router.ts). */
export type Route = (session: ClientSession, frame: ClientFrame) => void;

export class ClientSession implements Requester {
  deviceId = '';
  private paired = false;
  /** The device's hello asked for replays in `frames` batches (caps.batches, server/gateway/README.md). */
  private batches = false;
  private readonly bucket: TokenBucket;
  private readonly helloTimer: NodeJS.Timeout;
  private lastRateError = 0;
  readonly media: MediaSession;

  /** The socket's own limit, restored after hello. */
  private readonly maxPayload: number | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly ctx: GatewayContext,
    private readonly route: Route,
    private readonly ip = 'unknown',
    /** The upgraded socket under `ws` (to write many frames in one go: `sendMany`). */
    private readonly socket?: Pick<Duplex, 'cork' | 'uncork'>,
  ) {
    this.bucket = new TokenBucket(ctx.opts.rateLimit.burst, ctx.opts.rateLimit.perSecond);
    this.media = new MediaSession(this);
    this.helloTimer = setTimeout(() => this.ws.close(1008, 'no hello'), HELLO_TIMEOUT_MS);
    // ws has no per-socket limit in its API; its receiver checks this field as each frame's length is
    // read, so a stranger cannot make us buffer megabytes before saying hello (ws is pinned; see package.json).
    const receiver = (ws as unknown as { _receiver?: { _maxPayload?: number } })._receiver;
    if (receiver && typeof receiver._maxPayload === 'number') {
      this.maxPayload = receiver._maxPayload;
      receiver._maxPayload = PRE_HELLO_MAX_BYTES;
    }
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      try {
        if (isBinary) this.onBinary(buf);
        else this.onText(buf);
      } catch (err) {
        ctx.log(`gateway: frame handling failed: ${(err as Error).stack ?? String(err)}`);
      }
    });
    ws.on('close', () => this.onClose());
    ws.on('error', (err) => ctx.log(`gateway: socket error: ${err.message}`));
  }

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  sendEncoded(text: string, coalescable: boolean): void {
    if (!this.open) return;
    if (coalescable && this.ws.bufferedAmount > BACKPRESSURE_BYTES) return;
    this.ws.send(this.ctx.raw.quirks?.noLiveCursor ? withoutCursor(text) : text);
  }

  /**
   * Sends many encoded frames (a sync replay) written a batch at a time: one write of a batch's frames
   * instead of one per frame. Per frame, 10,000 small writes each woke the browser's network service,
   * and on a machine with few cores the gateway, the browser and the page waited on each other.
   */
  sendMany(texts: Iterable<string>): void {
    if (this.batches) return this.sendBatches(texts);
    let inBatch = 0;
    for (const text of texts) {
      if (inBatch === 0) this.socket?.cork();
      this.sendEncoded(text, false);
      if (++inBatch === SEND_BATCH) {
        this.socket?.uncork();
        inBatch = 0;
      }
    }
    if (inBatch > 0) this.socket?.uncork();
  }

  /**
   * A replay as `{"v":1,"type":"frames","payload":{"frames":[…]}}` messages of up to SEND_BATCH frames
   * and BATCH_MAX_BYTES each, the frames as they would go alone: for the browser, handing over 10,000
   * WebSocket messages took longer than storing them, and 40 carry the same frames.
   */
  private sendBatches(texts: Iterable<string>): void {
    let batch: string[] = [];
    let bytes = 0;
    const flush = () => {
      if (batch.length === 1) this.sendEncoded(batch[0]!, false);
      else if (batch.length > 1)
        this.sendEncoded(`{"v":1,"type":"${BATCH_TYPE}","payload":{"frames":[${batch.join(',')}]}}`, false);
      batch = [];
      bytes = 0;
    };
    for (const text of texts) {
      if (batch.length === SEND_BATCH || (batch.length > 0 && bytes + text.length > BATCH_MAX_BYTES)) flush();
      batch.push(text);
      bytes += text.length;
    }
    flush();
  }

  /** Send a frame to this socket only (a response, not outboxed). */
  send(frame: ServerFrame): void {
    for (const f of quirkFrames(frame, this.ctx.raw.quirks)) this.sendEncoded(encodeFrame(f), false);
  }

  error(code: ErrorCode, message: string, id?: number): void {
    this.send({ v: 1, type: 'error', id, payload: { code, message } });
  }

  /** Send binary bytes; resolves when handed to the socket (so a pull can pace itself). */
  sendBinary(bytes: Buffer): Promise<boolean> {
    return new Promise((resolve) => {
      if (!this.open) return resolve(false);
      this.ws.send(bytes, { binary: true }, (err) => resolve(!err));
    });
  }

  close(code = 1001, reason = 'gateway closing'): void {
    this.ws.close(code, reason);
  }

  private onText(buf: Buffer): void {
    if (!this.paired && buf.length > PRE_HELLO_MAX_BYTES) return this.ws.close(1009, 'frame too large before hello');
    if (buf.length > this.ctx.opts.maxFrameBytes) {
      if (this.paired)
        this.error(
          'unsupported',
          `Frame of ${buf.length} bytes is over the ${this.ctx.opts.maxFrameBytes}-byte limit; ignored.`,
        );
      return;
    }
    const frame = parseFrame(buf.toString('utf8'));
    // Before hello, anything that is not a frame ends the socket: there is no session to protect.
    if (!frame) return this.paired ? undefined : this.ws.close(1008, 'invalid frame');
    if (!this.paired) return this.onHello(frame as ClientFrame);
    if (!this.bucket.take()) return this.rateLimited(frame.id);
    if (!clientTypes.has(frame.type))
      return this.error('unsupported', `Unknown frame type "${frame.type.slice(0, 64)}".`, frame.id);
    if (frame.type === 'hello') return this.error('unsupported', 'Already paired on this connection.', frame.id);
    try {
      this.route(this, frame as ClientFrame);
    } catch (err) {
      // A bug must not leave the app waiting: it gets an answer, the gateway keeps running.
      this.ctx.log(`gateway: ${frame.type} failed: ${(err as Error).stack ?? String(err)}`);
      this.error('internal', `The gateway failed to handle ${frame.type}.`, frame.id);
    }
  }

  private onBinary(buf: Buffer): void {
    if (!this.paired) return this.ws.close(1008, 'binary frame before hello');
    this.media.onBinary(buf);
  }

  private rateLimited(id: number | undefined): void {
    // Every refused request is answered (its caller waits on it); id-less floods get one error a second.
    const now = Date.now();
    if (id === undefined && now - this.lastRateError < 1000) return;
    this.lastRateError = now;
    this.error('rate_limited', 'Too many frames; slow down and retry.', id);
  }

  private onHello(frame: ClientFrame): void {
    const fail = (message: string) => {
      this.error('auth', message, frame.id);
      this.ws.close(1008, 'auth');
    };
    if (frame.type !== 'hello') return fail('The first frame must be hello.');
    const { helloBackoff } = this.ctx;
    const wait = helloBackoff.waitMs(this.ip);
    if (wait > 0) {
      // The token is not even compared: guesses during the wait cost the guesser, not us.
      this.error(
        'rate_limited',
        `Too many failed pairings from this address; try again in ${Math.ceil(wait / 1000)} s.`,
        frame.id,
      );
      this.ws.close(1008, 'rate limited');
      return;
    }
    const p = frame.payload as Record<string, unknown>;
    if (!tokenMatches(this.ctx.opts.token, p.token)) {
      helloBackoff.failed(this.ip);
      return fail('The token was not accepted. Pair this device again.');
    }
    helloBackoff.succeeded(this.ip);
    const deviceId = typeof p.device_id === 'string' ? p.device_id.trim() : '';
    if (deviceId === '' || deviceId.length > 200) return fail('hello needs a device_id.');
    clearTimeout(this.helloTimer);
    const receiver = (this.ws as unknown as { _receiver?: { _maxPayload?: number } })._receiver;
    if (receiver && this.maxPayload !== undefined) receiver._maxPayload = this.maxPayload;
    const caps = (typeof p.caps === 'object' && p.caps !== null ? p.caps : {}) as Record<string, unknown>;
    this.batches = caps.batches === true && !this.ctx.raw.quirks?.noLiveCursor;
    const name = typeof p.device_name === 'string' ? p.device_name.slice(0, 200) : undefined;
    const { store, hub } = this.ctx;
    const firstHello = store.devices.get(deviceId) === undefined;
    store.devices.register(deviceId, name, {
      push: caps.push,
      webpush: p.webpush,
      fcm_token: p.fcm_token,
      ntfy_topic: p.ntfy_topic,
    });
    this.deviceId = deviceId;
    this.paired = true;
    hub.add(this);
    // The cursor is revealed now, so it must be durable: a restart must never hand it out again.
    store.flush();
    this.send({
      v: 1,
      type: 'hello.ack',
      id: frame.id,
      payload: {
        server_caps: {
          streaming: true,
          reasoning: true,
          tools: true,
          media: true,
          search: true,
          pickers: true,
          push: this.ctx.raw.push ? 'webpush' : 'none',
        },
        sync_cursor: store.cursor(deviceId),
        channels: store.channels.list(),
      },
    });
    this.send(statusFrame(this.ctx.agent.describe()));
    // A device paired while questions wait was not there when they were asked: they go to its outbox
    // now, so it can answer them too (its first sync brings them, as any device's).
    if (firstHello) for (const f of this.ctx.agent.openPickers?.() ?? []) hub.emit(f, { only: [deviceId] });
    this.ctx.log(`gateway: device paired (${deviceId.slice(0, 8)}…)`);
  }

  private onClose(): void {
    clearTimeout(this.helloTimer);
    this.media.abort();
    if (this.paired) this.ctx.hub.remove(this);
  }
}
