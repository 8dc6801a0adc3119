// The one owner of the WebSocket to the gateway: pairing (hello first, nothing before hello.ack),
// numbered requests settled by their answers, heartbeat and reconnection (spec README §2, §3, §14).
import { createSignal, type Accessor } from 'solid-js';
import {
  encodeFrame,
  parseServerFrame,
  type ClientFrame,
  type ClientFrameType,
  type HelloAckFrame,
  type HelloFrame,
  type PushMode,
  type ServerFrame,
  type ServerFrameType,
} from '../protocol';
import { backoffDelay, BACKOFF_BASE_MS, BACKOFF_MAX_MS } from './backoff';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import { realTimers, type Timers } from './timers';

export type ConnectionState = 'offline' | 'connecting' | 'pairing' | 'online' | 'auth-failed';

/** How this device wants to be woken, repeated in every hello (spec README §13): caps.push and its address. */
export type PushHello = { push: PushMode } & Pick<HelloFrame['payload'], 'webpush' | 'ntfy_topic'>;

/** The part of the WebSocket API used here: the browser's WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  // `any` events: each implementation types its own event objects; only `data` is read.
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: any) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** Calls `wake` when a dead-looking connection is worth retrying at once; returns an unsubscribe. */
export type WakeSource = (wake: () => void) => () => void;

/**
 * The browser's signals (§14): the network came back, or the page became visible. Losing the network
 * wakes too: an online connection is pinged at once, so a dead socket shows as offline within the
 * 10 s liveness window instead of the next 25 s heartbeat.
 */
export const browserWakeSource: WakeSource = (wake) => {
  const g = globalThis as { addEventListener?: typeof addEventListener; removeEventListener?: typeof removeEventListener; document?: Document };
  const onVisible = () => {
    if (g.document?.visibilityState === 'visible') wake();
  };
  g.addEventListener?.('online', wake);
  g.addEventListener?.('offline', wake);
  g.document?.addEventListener('visibilitychange', onVisible);
  return () => {
    g.removeEventListener?.('online', wake);
    g.removeEventListener?.('offline', wake);
    g.document?.removeEventListener('visibilitychange', onVisible);
  };
};

/** Which answers settle a request of each type (an `error` with its id always does). */
const ANSWERS: Partial<Record<ClientFrameType, readonly ServerFrameType[]>> = {
  'message.send': ['message'],
  'message.delete': ['message.deleted'],
  history: ['history'],
  search: ['search.results'],
  sync: ['sync.done'],
  'commands.catalog': ['commands.catalog'],
  'commands.complete': ['commands.complete'],
  'channel.create': ['channel.created'],
  'channel.rename': ['channel.renamed'],
  'channel.set_default': ['channel.renamed'],
  'channel.favorite': ['channel.renamed'],
  'channel.icon': ['channel.renamed'],
  'channel.delete': ['channel.deleted'],
  'channel.list': ['channel.list'],
  'media.upload.start': ['media.upload.ack'],
  'media.pull': ['media.pull.end'],
  // The reference gateway acknowledges these with the request id; others may stay silent.
  'agent.stop': ['agent.idle'],
  'agent.steer': ['commentary'],
  'picker.select': ['agent.busy'],
};

export interface RequestOptions {
  /** ms; null = no timeout (media transfers). Default: the connection's request timeout (15 s). */
  timeoutMs?: number | null;
  /** The answer may come without an id (matched by type then), e.g. `sync.done`. */
  matchWithoutId?: boolean;
  /** Abandons the request: it rejects with the signal's reason and a late answer is treated as an event. */
  signal?: AbortSignal;
  /** Called with the id the frame was sent with. */
  onSent?: (id: number) => void;
}

export interface ConnectionHandlers {
  /** hello.ack arrived; the connection is online. */
  opened?(ack: HelloAckFrame): void;
  /**
   * Every frame after hello.ack that is not an error answering a request. `request` is the frame it
   * answers, if any. The request settles only after the returned promise does (so callers see stored data).
   */
  frame?(frame: ServerFrame, request?: ClientFrame): void | Promise<unknown>;
  /** A binary frame (media bytes of the open pull). */
  binary?(data: ArrayBuffer): void;
  /** The socket closed (pending requests have already been rejected). */
  closed?(): void;
  state?(state: ConnectionState): void;
}

export interface ConnectionOptions {
  url: string;
  token: string;
  deviceId: string;
  deviceName: string;
  push?: PushMode;
  /** Read at every hello (push can be turned on or renewed while connected); overrides `push`. */
  pushHello?: () => Promise<PushHello>;
  WebSocketImpl?: WebSocketConstructor;
  timers?: Timers;
  random?: () => number;
  requestTimeoutMs?: number;
  pingIntervalMs?: number;
  /** How long after a ping without any frame the connection counts as dead. */
  deadAfterMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  wakeSource?: WakeSource;
  handlers?: ConnectionHandlers;
}

interface Pending {
  frame: ClientFrame;
  answers?: readonly ServerFrameType[];
  matchWithoutId: boolean;
  resolve(frame: ServerFrame): void;
  reject(error: unknown): void;
  timer?: unknown;
}

const OPEN = 1;

export class Connection {
  readonly state: Accessor<ConnectionState>;
  /** The last reason the connection is not online, in words (auth refusal, socket error). */
  readonly lastError: Accessor<string | undefined>;
  private readonly setStateSignal: (s: ConnectionState) => void;
  private readonly setLastError: (e: string | undefined) => void;
  private readonly opts: Required<Omit<ConnectionOptions, 'push' | 'pushHello' | 'handlers' | 'WebSocketImpl'>> &
    Pick<ConnectionOptions, 'push' | 'pushHello' | 'handlers'> & { WebSocketImpl?: WebSocketConstructor };
  private ws: WebSocketLike | null = null;
  /** Bumped whenever a socket is abandoned, so its late events are ignored. */
  private epoch = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private attempt = 0;
  private started = false;
  private authFailed = false;
  private reconnectTimer: unknown;
  private pingTimer: unknown;
  private deadTimer: unknown;
  private handshakeTimer: unknown;
  private unsubscribeWake?: () => void;

  constructor(options: ConnectionOptions) {
    this.opts = {
      timers: realTimers,
      random: Math.random,
      requestTimeoutMs: 15_000,
      pingIntervalMs: 25_000,
      deadAfterMs: 10_000,
      backoffBaseMs: BACKOFF_BASE_MS,
      backoffMaxMs: BACKOFF_MAX_MS,
      wakeSource: browserWakeSource,
      ...options,
    };
    const [state, setState] = createSignal<ConnectionState>('offline');
    const [lastError, setLastError] = createSignal<string | undefined>(undefined);
    this.state = state;
    this.lastError = lastError;
    this.setStateSignal = setState;
    this.setLastError = setLastError;
  }

  get url(): string {
    return this.opts.url;
  }

  /** Connects, and keeps reconnecting until stop() or an auth refusal. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.authFailed = false;
    this.attempt = 0;
    this.unsubscribeWake = this.opts.wakeSource(() => this.wake());
    this.connect();
  }

  /** Closes for good: pending requests reject, no reconnect. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.unsubscribeWake?.();
    this.unsubscribeWake = undefined;
    this.opts.timers.clearTimeout(this.reconnectTimer);
    this.dropSocket('Disconnected.');
    this.setState(this.authFailed ? 'auth-failed' : 'offline');
  }

  /** Retry now if waiting to reconnect; if online, check the connection is still alive. */
  wake(): void {
    if (!this.started || this.authFailed) return;
    if (this.ws === null) {
      this.opts.timers.clearTimeout(this.reconnectTimer);
      this.connect();
    } else if (this.state() === 'online') {
      this.ping();
    }
  }

  /** Drops the socket as dead (e.g. a sync that never finishes) and reconnects with backoff. */
  reconnect(reason = 'The gateway stopped answering.'): void {
    if (!this.started || this.authFailed || !this.ws) return;
    this.lose(reason);
  }

  /**
   * Sends a request with the next id and resolves with its answer (after the handlers applied it).
   * Rejects with ProtocolError on an `error` answer, RequestTimeoutError, or ConnectionLostError.
   */
  request(frame: ClientFrame, options: RequestOptions = {}): Promise<ServerFrame> {
    if (this.state() !== 'online' || !this.ws) return Promise.reject(new ConnectionLostError());
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = this.nextId++;
    return new Promise<ServerFrame>((resolve, reject) => {
      const timeoutMs = options.timeoutMs === undefined ? this.opts.requestTimeoutMs : options.timeoutMs;
      const entry: Pending = {
        frame: { ...frame, id } as ClientFrame,
        answers: ANSWERS[frame.type],
        matchWithoutId: options.matchWithoutId ?? false,
        resolve,
        reject,
      };
      if (timeoutMs !== null) {
        entry.timer = this.opts.timers.setTimeout(() => {
          if (this.pending.get(id) !== entry) return;
          this.pending.delete(id);
          reject(new RequestTimeoutError(frame.type, timeoutMs));
        }, timeoutMs);
      }
      options.signal?.addEventListener('abort', () => {
        if (this.pending.get(id) !== entry) return;
        this.pending.delete(id);
        this.opts.timers.clearTimeout(entry.timer);
        reject(options.signal!.reason);
      });
      this.pending.set(id, entry);
      this.sendRaw(encodeFrame(entry.frame));
      options.onSent?.(id);
    });
  }

  /**
   * Sends a frame that has no answer of its own, numbered as a request (spec README §2) unless
   * `id` names the request it continues (media.upload.end carries its upload's id).
   */
  notify(frame: ClientFrame, id?: number): void {
    if (this.state() !== 'online' || !this.ws) throw new ConnectionLostError();
    this.sendRaw(encodeFrame({ ...frame, id: id ?? this.nextId++ }));
  }

  /** Sends media bytes (an upload's chunk). Throws if not online. */
  sendBinary(data: ArrayBuffer | ArrayBufferView): void {
    if (this.state() !== 'online' || !this.ws) throw new ConnectionLostError();
    this.ws.send(data);
  }

  /** Bytes queued in the socket and not yet sent (for upload backpressure and progress). */
  bufferedAmount(): number {
    return this.ws?.bufferedAmount ?? 0;
  }

  // ---------------------------------------------------------------------------

  private setState(state: ConnectionState): void {
    if (this.state() === state) return;
    this.setStateSignal(state);
    this.opts.handlers?.state?.(state);
  }

  private sendHello(epoch: number, push: PushHello | undefined): void {
    this.sendRaw(
      encodeFrame({
        type: 'hello',
        payload: {
          token: this.opts.token,
          device_id: this.opts.deviceId,
          device_name: this.opts.deviceName,
          caps: { min_protocol: 1, media: true, push: push?.push ?? this.opts.push ?? 'none' },
          ...(push?.webpush && { webpush: push.webpush }),
          ...(push?.ntfy_topic && { ntfy_topic: push.ntfy_topic }),
        },
      }),
    );
    // A gateway that accepts the socket but never answers hello is as good as dead.
    this.handshakeTimer = this.opts.timers.setTimeout(() => {
      if (epoch === this.epoch) this.lose('The gateway did not answer.');
    }, this.opts.requestTimeoutMs);
  }

  private connect(): void {
    if (!this.started || this.ws) return;
    this.setState('connecting');
    const epoch = ++this.epoch;
    this.nextId = 1; // ids count per connection (spec README §2)
    let ws: WebSocketLike;
    try {
      const Impl = this.opts.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
      if (!Impl) throw new Error('No WebSocket implementation available.');
      ws = new Impl(this.opts.url);
    } catch (err) {
      this.setLastError(err instanceof Error ? err.message : String(err));
      this.setState('offline');
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      if (epoch !== this.epoch) return;
      this.setState('pairing');
      if (!this.opts.pushHello) return this.sendHello(epoch, undefined);
      void this.opts
        .pushHello()
        .catch(() => undefined)
        .then((push) => {
          if (epoch === this.epoch) this.sendHello(epoch, push);
        });
    };
    ws.onmessage = (ev: { data: unknown }) => {
      if (epoch === this.epoch) this.receive(ev.data);
    };
    ws.onerror = () => {
      if (epoch === this.epoch) this.setLastError('Could not reach the gateway.');
    };
    ws.onclose = () => {
      if (epoch === this.epoch) this.lose();
    };
  }

  private receive(data: unknown): void {
    // Any frame proves the connection alive.
    this.opts.timers.clearTimeout(this.deadTimer);
    this.deadTimer = undefined;
    if (typeof data !== 'string') {
      const bytes = toArrayBuffer(data);
      if (bytes && this.state() === 'online') this.opts.handlers?.binary?.(bytes);
      return;
    }
    const frame = parseServerFrame(data);
    if (!frame) return; // malformed or unknown: ignored (spec README §1)
    if (this.state() === 'pairing') {
      if (frame.type === 'hello.ack') this.paired(frame);
      else if (frame.type === 'error') this.refused(frame.payload.code, frame.payload.message);
      return; // nothing else is meaningful before hello.ack
    }
    if (this.state() !== 'online') return;
    if (frame.type === 'error' && frame.payload.code === 'auth' && !this.pending.has(frame.id ?? -1)) {
      this.refused('auth', frame.payload.message); // the token was revoked mid-session
      return;
    }
    const match = this.takePending(frame);
    if (!match) {
      // An event nobody waits for: a failed write is reported by the pipeline, not as an unhandled rejection.
      void Promise.resolve(this.opts.handlers?.frame?.(frame)).catch(() => {});
      return;
    }
    this.opts.timers.clearTimeout(match.timer);
    if (frame.type === 'error') {
      match.reject(new ProtocolError(String(frame.payload.code), String(frame.payload.message ?? '')));
      return;
    }
    Promise.resolve(this.opts.handlers?.frame?.(frame, match.frame)).then(
      () => match.resolve(frame),
      (err) => match.reject(err),
    );
  }

  /** The pending request this frame answers, removed from the table; undefined for events. */
  private takePending(frame: ServerFrame): Pending | undefined {
    const fits = (p: Pending) =>
      frame.type === 'error' || !p.answers || p.answers.includes(frame.type);
    if (frame.id !== undefined) {
      const p = this.pending.get(frame.id);
      // A replayed frame can carry an id from an older connection: the type must fit too, and an
      // echo with a client_id must be the echo of this very send.
      if (p && fits(p) && sameSend(p.frame, frame)) {
        this.pending.delete(frame.id);
        return p;
      }
    }
    if (frame.type !== 'error') {
      for (const [id, p] of this.pending) {
        if (p.matchWithoutId && p.answers?.includes(frame.type) && frame.id === undefined) {
          this.pending.delete(id);
          return p;
        }
      }
    }
    return undefined;
  }

  private paired(ack: HelloAckFrame): void {
    this.opts.timers.clearTimeout(this.handshakeTimer);
    this.attempt = 0;
    this.setLastError(undefined);
    this.setState('online');
    this.schedulePing();
    this.opts.handlers?.opened?.(ack);
  }

  private refused(code: string, message: string | undefined): void {
    if (code === 'auth') {
      this.authFailed = true;
      this.setLastError(message ? String(message) : 'The gateway refused the token.');
      this.opts.timers.clearTimeout(this.reconnectTimer);
      this.dropSocket('The gateway refused the token.');
      this.setState('auth-failed');
      return;
    }
    this.lose(message ? String(message) : `The gateway refused the connection (${code}).`);
  }

  /** The socket is gone (closed, dead or refused): clean up and schedule a reconnect. */
  private lose(reason?: string): void {
    if (reason) this.setLastError(reason);
    this.dropSocket('The connection to the gateway was lost.');
    if (!this.started) return;
    if (this.authFailed) {
      this.setState('auth-failed');
      return;
    }
    this.setState('offline');
    this.scheduleReconnect();
  }

  private dropSocket(reason: string): void {
    const ws = this.ws;
    const hadSocket = ws !== null;
    this.epoch++;
    this.ws = null;
    for (const t of [this.pingTimer, this.deadTimer, this.handshakeTimer]) this.opts.timers.clearTimeout(t);
    this.pingTimer = this.deadTimer = this.handshakeTimer = undefined;
    if (ws) {
      // No-ops rather than null: `ws` reports closing a socket still connecting as an error event.
      const ignore = () => {};
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = ignore;
      try {
        ws.close();
      } catch {
        // already closing
      }
    }
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) {
      this.opts.timers.clearTimeout(p.timer);
      p.reject(new ConnectionLostError(reason));
    }
    if (hadSocket) this.opts.handlers?.closed?.();
  }

  private scheduleReconnect(): void {
    this.opts.timers.clearTimeout(this.reconnectTimer);
    const delay = backoffDelay(this.attempt++, this.opts.random, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
    this.reconnectTimer = this.opts.timers.setTimeout(() => this.connect(), delay);
  }

  private schedulePing(): void {
    this.opts.timers.clearTimeout(this.pingTimer);
    const epoch = this.epoch;
    this.pingTimer = this.opts.timers.setTimeout(() => {
      if (epoch !== this.epoch) return;
      this.ping();
      this.schedulePing();
    }, this.opts.pingIntervalMs);
  }

  private ping(): void {
    if (this.state() !== 'online') return;
    this.sendRaw(encodeFrame({ type: 'ping', payload: { ts: this.opts.timers.now() } }));
    if (this.deadTimer === undefined) {
      const epoch = this.epoch;
      this.deadTimer = this.opts.timers.setTimeout(() => {
        if (epoch === this.epoch) this.lose('The gateway stopped answering.');
      }, this.opts.deadAfterMs);
    }
  }

  private sendRaw(text: string): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return;
    try {
      ws.send(text);
    } catch {
      // The close event follows and handles it.
    }
  }
}

/** An echo carrying a client_id answers only the send with that client_id. */
function sameSend(request: ClientFrame, answer: ServerFrame): boolean {
  if (request.type !== 'message.send' || answer.type !== 'message') return true;
  const sent = request.payload.client_id;
  const echoed = (answer.payload as { client_id?: unknown }).client_id;
  return echoed === undefined || sent === undefined || echoed === sent;
}

function toArrayBuffer(data: unknown): ArrayBuffer | null {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) {
    return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  }
  if (Array.isArray(data)) {
    // ws may deliver fragmented binary as Buffer[]
    const parts = data.filter((d): d is Uint8Array => d instanceof Uint8Array);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out.buffer;
  }
  return null;
}
