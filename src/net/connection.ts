// The one owner of the WebSocket to the gateway, as an explicit state machine: pairing (hello first,
// nothing before hello.ack), numbered requests settled by their answers, heartbeat and reconnection
// (spec README §2, §3, §14). The transition table is ./phases.ts; each phase's entry runs here. The
// lifecycle is written down in ./README.md.
import {
  encodeFrame,
  parseServerMessage,
  type ClientFrame,
  type ErrorFrame,
  type HelloAckFrame,
  type PushMode,
  type ServerFrame,
} from '../protocol';
import { answersById, answersWithoutId, errorMayAnswer } from '../protocol/answers';
import { backoffDelay, BACKOFF_BASE_MS, BACKOFF_MAX_MS } from './backoff';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import { helloFrame, type PushHello } from './hello';
import { nextPhase, type ConnectionState, type LifecycleEvent, type Phase } from './phases';
import { realTimers, type Timers } from './timers';
import { browserWakeSource, type WakeSource } from './wake';

/** The part of the WebSocket API used here: the browser's WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  // `any` events: each implementation types its own event objects; only `data` is read.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: any) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RequestOptions {
  /** ms; null = no timeout (media transfers). Default: the connection's request timeout (15 s). */
  timeoutMs?: number | null;
  /** Abandons the request: it rejects with the signal's reason and a late answer is treated as an event. */
  signal?: AbortSignal;
  /** Called with the id the frame was sent with. */
  onSent?: (id: number) => void;
  /**
   * The app's own refresh, whose failure nobody shows: an error taken as its answer only because it came
   * without an id and this request was the one waiting is shown as well (it may have been the gateway's
   * news, and would otherwise be lost).
   */
  unseen?: boolean;
}

interface ConnectionHandlers {
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
  /** Sent in hello when given (the service worker's one-shot connection has none of its own). */
  deviceName?: string;
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
  /** The same, for the ping sent as the device loses its network (WakeSource's networkLost). */
  deadAfterNetworkLostMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** False for a one-shot connection: a lost socket closes it instead of backing off (default true). */
  reconnects?: boolean;
  wakeSource?: WakeSource;
  handlers?: ConnectionHandlers;
}

interface Pending {
  frame: ClientFrame;
  resolve(frame: ServerFrame): void;
  reject(error: unknown): void;
  timer?: unknown;
  /** `sent` once this request went out: equal to it still while nothing has been sent after. */
  sent: number;
  unseen: boolean;
}

const OPEN = 1;
/** The WebSocket close code for "policy violation" (RFC 6455 §7.4.1). */
const REFUSED_CLOSE_CODE = 1008;
/**
 * `unsupported` without an id is how protocol.py refuses a frame type it lacks (it has no
 * `commands.catalog`): some request's answer, never news. With two waiting it answers the one whose type
 * its message names; where it cannot tell which, it is not shown either: "Unknown frame type" means
 * nothing to a person, and the request it answered ends with its timeout.
 */
const refusesType = (frame: ServerFrame): frame is ErrorFrame =>
  frame.type === 'error' && frame.id === undefined && frame.payload.code === 'unsupported';

/** Whether an error's message names a frame type as a word of its own ("Unknown frame type "agent.stop"."). */
const namesType = (message: unknown, type: string) =>
  typeof message === 'string' && message.split(/[^\w.]+/).some((word) => word.replace(/\.+$/, '') === type);
/** Frames sent without the person asking, whose refusal is not shown (see `receive`). */
const UNASKED_TYPES: ReadonlySet<string> = new Set(['read.receipt']);
/** How many of their ids are remembered: an answer comes at once or not at all. */
const MAX_UNASKED = 64;

export class GatewayConnection {
  private readonly opts: Required<
    Omit<ConnectionOptions, 'deviceName' | 'push' | 'pushHello' | 'handlers' | 'WebSocketImpl'>
  > &
    Pick<ConnectionOptions, 'deviceName' | 'push' | 'pushHello' | 'handlers'> & {
      WebSocketImpl?: WebSocketConstructor;
    };
  private current: Phase = 'closed';
  private shown: ConnectionState = 'offline';
  private error: string | undefined;
  /** The socket of the connecting, hello-sent and live phases; null in the others. */
  private ws: WebSocketLike | null = null;
  /** Bumped whenever a socket is abandoned, so its late events are ignored. */
  private epoch = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Text frames sent on this connection (requests, pings, receipts), bar an upload's own end. */
  private sent = 0;
  /** Ids of the latest frames sent on the person's behalf without their asking (read receipts). */
  private readonly unasked = new Set<number>();
  /** Reconnect attempts since the last hello.ack (the backoff's exponent). */
  private attempt = 0;
  private reconnectTimer: unknown;
  private pingTimer: unknown;
  private deadTimer: unknown;
  /** When deadTimer fires (timers.now() time). */
  private deadAt = 0;
  private handshakeTimer: unknown;
  private unsubscribeWake?: () => void;

  constructor(options: ConnectionOptions) {
    this.opts = {
      timers: realTimers,
      random: Math.random,
      requestTimeoutMs: 15_000,
      pingIntervalMs: 25_000,
      deadAfterMs: 10_000,
      deadAfterNetworkLostMs: 3_000,
      backoffBaseMs: BACKOFF_BASE_MS,
      backoffMaxMs: BACKOFF_MAX_MS,
      reconnects: true,
      wakeSource: browserWakeSource,
      ...options,
    };
  }

  /**
   * What the app shows of the connection now. A plain value, not a Solid signal, so that the service
   * worker's bundle goes without solid-js: `handlers.state` hears every change (the client turns it
   * into its signals).
   */
  state(): ConnectionState {
    return this.shown;
  }

  /** The last reason the connection is not online, in words (auth refusal, socket error). */
  lastError(): string | undefined {
    return this.error;
  }

  get url(): string {
    return this.opts.url;
  }

  /** Where the lifecycle is (tests and diagnostics). */
  get phase(): Phase {
    return this.current;
  }

  /** Connects, and keeps reconnecting until stop() or an auth refusal. */
  start(): void {
    this.emit({ type: 'start' });
  }

  /** Closes for good: pending requests reject, no reconnect. */
  stop(): void {
    this.emit({ type: 'stop' });
  }

  /**
   * Retry now if waiting to reconnect; if online, check the connection is still alive (within a few
   * seconds when the device has just lost its network).
   */
  wake(networkLost = false): void {
    if (this.current === 'live') this.ping(networkLost ? this.opts.deadAfterNetworkLostMs : this.opts.deadAfterMs);
    else this.emit({ type: 'retry' });
  }

  /** Drops the socket as dead (e.g. a sync that never finishes) and reconnects with backoff. */
  reconnect(reason = 'The gateway stopped answering.'): void {
    this.emit({ type: 'lost', reason });
  }

  /**
   * Sends a request with the next id and resolves with its answer (after the handlers applied it).
   * Rejects with ProtocolError on an `error` answer, RequestTimeoutError, or ConnectionLostError.
   */
  request(frame: ClientFrame, options: RequestOptions = {}): Promise<ServerFrame> {
    if (this.current !== 'live') return Promise.reject(new ConnectionLostError());
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = this.nextId++;
    return new Promise<ServerFrame>((resolve, reject) => {
      const timeoutMs = options.timeoutMs === undefined ? this.opts.requestTimeoutMs : options.timeoutMs;
      const entry: Pending = {
        frame: { ...frame, id } as ClientFrame,
        resolve,
        reject,
        sent: 0,
        unseen: options.unseen === true,
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
      entry.sent = this.sent;
      options.onSent?.(id);
    });
  }

  /**
   * Sends a frame that has no answer of its own, numbered as a request (spec README §2) unless
   * `id` names the request it continues (media.upload.end carries its upload's id).
   */
  notify(frame: ClientFrame, id?: number): void {
    if (this.current !== 'live') throw new ConnectionLostError();
    const sentId = id ?? this.nextId++;
    if (UNASKED_TYPES.has(frame.type)) {
      this.unasked.add(sentId);
      if (this.unasked.size > MAX_UNASKED) this.unasked.delete(this.unasked.values().next().value!);
    }
    // An upload's end continues its request: an error after it still answers that request.
    this.sendRaw(encodeFrame({ ...frame, id: sentId }), id === undefined);
  }

  /** Sends media bytes (an upload's chunk). Throws if not online. */
  sendBinary(data: ArrayBuffer | ArrayBufferView): void {
    if (this.current !== 'live' || !this.ws) throw new ConnectionLostError();
    this.ws.send(data);
  }

  /** Bytes queued in the socket and not yet sent (for upload backpressure and progress). */
  bufferedAmount(): number {
    return this.ws?.bufferedAmount ?? 0;
  }

  // --- the state machine ------------------------------------------------------

  /** Moves to the phase the event leads to and runs that phase's entry; ignored where it means nothing. */
  private emit(event: LifecycleEvent): void {
    const from = this.current;
    const to = nextPhase(from, event.type, this.opts.reconnects);
    if (to === undefined) return;
    this.current = to;
    switch (to) {
      case 'connecting':
        return this.enterConnecting(from);
      case 'hello-sent':
        return this.enterHelloSent();
      case 'live':
        return this.enterLive((event as Extract<LifecycleEvent, { type: 'acked' }>).ack);
      case 'auth-failed':
        return this.enterAuthFailed((event as Extract<LifecycleEvent, { type: 'refused' }>).message);
      case 'backing-off':
        return this.enterBackingOff((event as Extract<LifecycleEvent, { type: 'lost' }>).reason);
      case 'closed':
        return this.enterClosed(from, event);
    }
  }

  private enterConnecting(from: Phase): void {
    if (from === 'closed') {
      this.attempt = 0;
      this.unsubscribeWake = this.opts.wakeSource((networkLost) => this.wake(networkLost));
    }
    // A wake during the backoff retries at once.
    this.opts.timers.clearTimeout(this.reconnectTimer);
    this.setState('connecting');
    const epoch = ++this.epoch;
    this.nextId = 1; // ids count per connection (spec README §2)
    this.unasked.clear();
    let ws: WebSocketLike;
    try {
      const Impl = this.opts.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
      if (!Impl) throw new Error('No WebSocket implementation available.');
      ws = new Impl(this.opts.url);
    } catch (err) {
      return this.emit({ type: 'lost', reason: err instanceof Error ? err.message : String(err) });
    }
    this.ws = ws;
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      if (epoch === this.epoch) this.emit({ type: 'opened' });
    };
    ws.onmessage = (ev: { data: unknown }) => {
      if (epoch === this.epoch) this.receive(ev.data);
    };
    ws.onerror = () => {
      if (epoch === this.epoch) this.setLastError('Could not reach the gateway.');
    };
    ws.onclose = (ev: { code?: unknown; reason?: unknown } | undefined) => {
      if (epoch !== this.epoch) return;
      // Closed at hello with 1008 (policy violation, the WebSocket way to refuse): a refused token as
      // much as error{auth} is (spec README §3), not a lost connection to retry for ever.
      if (this.current === 'hello-sent' && ev?.code === REFUSED_CLOSE_CODE) {
        return this.refused('auth', typeof ev.reason === 'string' && ev.reason ? ev.reason : undefined);
      }
      this.emit({ type: 'lost' });
    };
  }

  private enterHelloSent(): void {
    this.setState('pairing');
    const epoch = this.epoch;
    if (!this.opts.pushHello) return this.sendHello(epoch, undefined);
    void this.opts
      .pushHello()
      .catch((err: unknown) => {
        // Hello goes without the push details rather than not at all; the gateway keeps the last ones.
        console.warn('iris: could not read the push details for hello', err);
        return undefined;
      })
      .then((push) => {
        if (epoch === this.epoch) this.sendHello(epoch, push);
      });
  }

  private sendHello(epoch: number, push: PushHello | undefined): void {
    this.sendRaw(encodeFrame(helloFrame(this.opts, push ?? { push: this.opts.push ?? 'none' })));
    // A gateway that accepts the socket but never answers hello is as good as dead.
    this.handshakeTimer = this.opts.timers.setTimeout(() => {
      if (epoch === this.epoch) this.emit({ type: 'lost', reason: 'The gateway did not answer.' });
    }, this.opts.requestTimeoutMs);
  }

  private enterLive(ack: HelloAckFrame): void {
    this.opts.timers.clearTimeout(this.handshakeTimer);
    this.attempt = 0;
    this.setLastError(undefined);
    this.setState('online');
    this.schedulePing();
    this.opts.handlers?.opened?.(ack);
  }

  private enterAuthFailed(message: string | undefined): void {
    this.setLastError(message ? String(message) : 'The gateway refused the token.');
    this.opts.timers.clearTimeout(this.reconnectTimer);
    this.dropSocket('The gateway refused the token.');
    this.setState('auth-failed');
  }

  /** The socket is gone (closed, dead or refused): clean up and schedule a reconnect. */
  private enterBackingOff(reason: string | undefined): void {
    if (reason) this.setLastError(reason);
    this.dropSocket('The connection to the gateway was lost.');
    this.setState('offline');
    this.opts.timers.clearTimeout(this.reconnectTimer);
    const delay = backoffDelay(this.attempt++, this.opts.random, this.opts.backoffBaseMs, this.opts.backoffMaxMs);
    this.reconnectTimer = this.opts.timers.setTimeout(() => this.emit({ type: 'retry' }), delay);
  }

  private enterClosed(from: Phase, event: LifecycleEvent): void {
    this.unsubscribeWake?.();
    this.unsubscribeWake = undefined;
    this.opts.timers.clearTimeout(this.reconnectTimer);
    if (event.type === 'lost') {
      // A one-shot connection ends where another would back off.
      if (event.reason) this.setLastError(event.reason);
      this.dropSocket('The connection to the gateway was lost.');
    } else {
      this.dropSocket('Disconnected.');
    }
    // A refused token stays shown as such.
    this.setState(from === 'auth-failed' ? 'auth-failed' : 'offline');
  }

  // --- frames -----------------------------------------------------------------

  private setState(state: ConnectionState): void {
    if (this.shown === state) return;
    this.shown = state;
    this.opts.handlers?.state?.(state);
  }

  private setLastError(error: string | undefined): void {
    this.error = error;
  }

  private receive(data: unknown): void {
    // Any frame proves the connection alive.
    this.opts.timers.clearTimeout(this.deadTimer);
    this.deadTimer = undefined;
    if (typeof data !== 'string') {
      const bytes = toArrayBuffer(data);
      if (bytes && this.current === 'live') this.opts.handlers?.binary?.(bytes);
      return;
    }
    // Malformed or unknown: no frame, ignored (spec README §1). A replay batch (an extension this app
    // asks for in hello): each of its frames as if it came alone, in order.
    const message = parseServerMessage(data);
    if (message.batch && this.current !== 'live') return;
    for (const frame of message.frames) this.receiveFrame(frame);
  }

  private receiveFrame(frame: ServerFrame): void {
    if (this.current === 'hello-sent') {
      if (frame.type === 'hello.ack') this.emit({ type: 'acked', ack: frame });
      else if (frame.type === 'error') this.refused(String(frame.payload.code), frame.payload.message);
      return; // nothing else is meaningful before hello.ack
    }
    if (this.current !== 'live') return;
    if (frame.type === 'error' && frame.payload.code === 'auth' && !this.pending.has(frame.id ?? -1)) {
      this.refused('auth', frame.payload.message); // the token was revoked mid-session
      return;
    }
    // A gateway refusing a read receipt (a message deleted meanwhile, or one it does not keep, rate
    // limiting): the person did not ask for it, and the next read sends another. Nothing to show.
    if (frame.type === 'error' && frame.id !== undefined && this.unasked.delete(frame.id)) return;
    const taken = this.takePending(frame);
    const match = taken?.pending;
    if ((!match || (taken.guessed && match.unseen)) && !refusesType(frame)) this.handOver(frame);
    if (!match) return;
    this.opts.timers.clearTimeout(match.timer);
    if (frame.type === 'error') {
      match.reject(
        new ProtocolError(String(frame.payload.code), String(frame.payload.message ?? ''), match.frame.type),
      );
      return;
    }
    Promise.resolve(this.opts.handlers?.frame?.(frame, match.frame)).then(
      () => match.resolve(frame),
      (err) => match.reject(err),
    );
  }

  /** An event nobody waits for, to the handler: a failed write is reported by the pipeline, not as an unhandled rejection. */
  private handOver(frame: ServerFrame): void {
    void Promise.resolve(this.opts.handlers?.frame?.(frame)).catch(() => {});
  }

  /**
   * The pending request this frame answers, removed from the table (`guessed` when only the one-waiting
   * rule for an error without an id says so); undefined for events.
   */
  private takePending(frame: ServerFrame): { pending: Pending; guessed: boolean } | undefined {
    if (frame.id !== undefined) {
      const p = this.pending.get(frame.id);
      if (p && answersById(p.frame, frame)) {
        this.pending.delete(frame.id);
        return { pending: p, guessed: false };
      }
    }
    for (const [id, p] of this.pending) {
      if (answersWithoutId(p.frame, frame)) {
        this.pending.delete(id);
        return { pending: p, guessed: false };
      }
    }
    // A refused type named in its message: the oldest request of that type, however many others wait.
    if (refusesType(frame) && this.pending.size > 1) {
      const named = [...this.pending].filter(
        ([, p]) => namesType(frame.payload.message, p.frame.type) && errorMayAnswer(p.frame, frame),
      );
      if (named.length > 0 && named.every(([, p]) => p.frame.type === named[0]![1].frame.type)) {
        this.pending.delete(named[0]![0]);
        return { pending: named[0]![1], guessed: true };
      }
    }
    // An error without an id answers the one request waiting if nothing went out after it; with more
    // waiting it could be any one's, and it settles none (it is shown; they time out).
    if (this.pending.size === 1) {
      const [id, p] = this.pending.entries().next().value!;
      if (p.sent === this.sent && errorMayAnswer(p.frame, frame)) {
        this.pending.delete(id);
        return { pending: p, guessed: true };
      }
    }
    return undefined;
  }

  private refused(code: string, message: string | undefined): void {
    if (code === 'auth') return this.emit({ type: 'refused', ...(message && { message: String(message) }) });
    this.emit({ type: 'lost', reason: message ? String(message) : `The gateway refused the connection (${code}).` });
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

  // --- heartbeat --------------------------------------------------------------

  private schedulePing(): void {
    this.opts.timers.clearTimeout(this.pingTimer);
    const epoch = this.epoch;
    this.pingTimer = this.opts.timers.setTimeout(() => {
      if (epoch !== this.epoch) return;
      this.ping();
      this.schedulePing();
    }, this.opts.pingIntervalMs);
  }

  /** Sends a ping; no frame within `deadAfterMs` (or an earlier deadline already set) means dead. */
  private ping(deadAfterMs = this.opts.deadAfterMs): void {
    if (this.current !== 'live') return;
    this.sendRaw(encodeFrame({ type: 'ping', payload: { ts: this.opts.timers.now() } }));
    const deadline = this.opts.timers.now() + deadAfterMs;
    if (this.deadTimer !== undefined && this.deadAt <= deadline) return;
    this.opts.timers.clearTimeout(this.deadTimer);
    this.deadAt = deadline;
    const epoch = this.epoch;
    this.deadTimer = this.opts.timers.setTimeout(() => {
      if (epoch === this.epoch) this.emit({ type: 'lost', reason: 'The gateway stopped answering.' });
    }, deadAfterMs);
  }

  private sendRaw(text: string, counted = true): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== OPEN) return;
    if (counted) this.sent++;
    try {
      ws.send(text);
    } catch {
      // The close event follows and handles it.
    }
  }
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
