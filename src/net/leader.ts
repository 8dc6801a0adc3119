// Several tabs, one socket: the tab holding the Web Lock `iris-connection` runs the gateway session;
// the others read the same DB and pass their requests to it over a BroadcastChannel. The lock is
// held for the tab's life, so when the leader tab closes the next waiting tab gets it at once.
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import type { ConnectionState } from './phases';
import { randomId } from '../lib/randomId';

/** Runs `lead` once this tab holds the lock; the lock is kept until the returned release is called. */
export function electLeader(lockName: string, lead: () => void): () => void {
  let release: (() => void) | undefined;
  let released = false;
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) {
    lead(); // no Web Locks (Node, old browsers): a single tab leads
    return () => {};
  }
  void locks
    .request(lockName, () => {
      if (released) return undefined;
      lead();
      return new Promise<void>((resolve) => (release = resolve));
    })
    .catch((err: unknown) => console.warn('iris: could not take part in electing the tab that connects', err));
  return () => {
    released = true;
    release?.();
  };
}

/** What a follower may ask the leader to do. */
export type RemoteMethod = 'request' | 'notify' | 'upload' | 'pull' | 'fetchHistory' | 'reconfigure';

export type BusMessage =
  | { t: 'state'; tab: string; state: ConnectionState; error?: string }
  | { t: 'who' }
  | { t: 'leader'; tab: string }
  | { t: 'outbox' }
  /** A follower's person asked to try the gateway now. */
  | { t: 'retry' }
  /** `to`: the leader tab the caller knows of (undefined before it has heard of one: anyone serving answers). */
  | { t: 'call'; id: number; from: string; to?: string; method: RemoteMethod; args: unknown[] }
  | { t: 'result'; id: number; to: string; ok: true; value: unknown }
  | { t: 'result'; id: number; to: string; ok: false; error: WireError };

interface WireError {
  name: string;
  message: string;
  code?: string;
  detail?: string;
}

function errorToWire(err: unknown): WireError {
  if (err instanceof ProtocolError) return { name: err.name, message: err.message, code: err.code, detail: err.detail };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

function errorFromWire(w: WireError): Error {
  switch (w.name) {
    case 'ProtocolError': {
      const e = new ProtocolError(w.code ?? 'internal', w.detail ?? '');
      e.message = w.message; // worded for its request by the tab that made it
      return e;
    }
    case 'ConnectionLostError':
      return new ConnectionLostError(w.message);
    case 'RequestTimeoutError': {
      const e = new RequestTimeoutError('request', 0);
      e.message = w.message;
      return e;
    }
    default: {
      const e = new Error(w.message);
      e.name = w.name;
      return e;
    }
  }
}

interface PendingCall {
  to?: string;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

export interface TabBusOptions {
  channelName: string;
  /** Calls without an answer fail after this long (the leader may have died mid-call). */
  callTimeoutMs?: number;
}

/**
 * The BroadcastChannel between tabs. A follower `call`s the leader; the leader `serve`s calls and
 * `announce`s its connection state. Every tab hears state and outbox pings.
 */
export class TabBus {
  readonly tab = randomId();
  private readonly channel: BroadcastChannel;
  private nextId = 1;
  private readonly calls = new Map<number, PendingCall>();
  /** The tab that serves calls, as far as this tab knows. */
  private leaderTab?: string;
  private server?: (method: RemoteMethod, args: unknown[]) => Promise<unknown>;
  private listeners = new Set<(m: BusMessage) => void>();
  private readonly callTimeoutMs: number;

  constructor(opts: TabBusOptions) {
    this.channel = new BroadcastChannel(opts.channelName);
    this.callTimeoutMs = opts.callTimeoutMs ?? 20_000;
    this.channel.onmessage = (ev: MessageEvent<BusMessage>) => this.receive(ev.data);
  }

  /** Listen to state, outbox and leader messages from other tabs. */
  listen(fn: (m: BusMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  post(message: BusMessage): void {
    this.channel.postMessage(message);
  }

  /** Become the tab that answers calls. */
  serve(handler: (method: RemoteMethod, args: unknown[]) => Promise<unknown>): void {
    this.server = handler;
    this.leaderTab = this.tab;
    this.post({ t: 'leader', tab: this.tab });
    // This tab's own calls went to the previous leader, which is gone: they will never be answered.
    this.failCalls(new ConnectionLostError('The tab holding the connection closed; try again.'));
  }

  /** The leader tells every tab its connection state. */
  announceState(state: ConnectionState, error?: string): void {
    this.post({ t: 'state', tab: this.tab, state, ...(error !== undefined && { error }) });
  }

  /** Ask the leader tab to run `method`; `timed` false for media transfers. */
  call(method: RemoteMethod, args: unknown[], timed = true): Promise<unknown> {
    const id = this.nextId++;
    const to = this.leaderTab;
    return new Promise((resolve, reject) => {
      const entry: PendingCall = { to, resolve, reject };
      if (timed) {
        entry.timer = setTimeout(() => {
          this.calls.delete(id);
          reject(new RequestTimeoutError(method, this.callTimeoutMs));
        }, this.callTimeoutMs);
      }
      this.calls.set(id, entry);
      this.post({ t: 'call', id, from: this.tab, ...(to !== undefined && { to }), method, args });
    });
  }

  close(): void {
    this.failCalls(new ConnectionLostError('The client is stopped.'));
    this.channel.close();
    this.listeners.clear();
  }

  /** Fails pending calls (all, or those addressed to a tab other than `except`). */
  private failCalls(error: Error, except?: string): void {
    for (const [id, c] of this.calls) {
      if (except !== undefined && (c.to === undefined || c.to === except)) continue;
      clearTimeout(c.timer);
      this.calls.delete(id);
      c.reject(error);
    }
  }

  private receive(message: BusMessage): void {
    if (!message || typeof message !== 'object') return;
    if (message.t === 'call') {
      if (!this.server || (message.to !== undefined && message.to !== this.tab)) return;
      const reply = (m: BusMessage) => this.post(m);
      this.server(message.method, message.args).then(
        (value) => reply({ t: 'result', id: message.id, to: message.from, ok: true, value }),
        (err) => reply({ t: 'result', id: message.id, to: message.from, ok: false, error: errorToWire(err) }),
      );
      return;
    }
    if (message.t === 'result') {
      if (message.to !== this.tab) return;
      const c = this.calls.get(message.id);
      if (!c) return;
      this.calls.delete(message.id);
      clearTimeout(c.timer);
      if (message.ok) c.resolve(message.value);
      else c.reject(errorFromWire(message.error));
      return;
    }
    if ((message.t === 'leader' || message.t === 'state') && !this.server && message.tab !== this.leaderTab) {
      // A new leader: calls addressed to the old one will never be answered.
      this.leaderTab = message.tab;
      this.failCalls(new ConnectionLostError('The tab holding the connection changed; try again.'), message.tab);
    }
    for (const fn of this.listeners) fn(message);
  }
}
