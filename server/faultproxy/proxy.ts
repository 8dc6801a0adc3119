// A TCP proxy on 127.0.0.1 in front of the serving process (app + /ws on one origin, so the app's CSP
// still holds) that injects faults into WebSocket links only: latency, cuts in the middle of a frame,
// the link going down for a while. Plain HTTP requests pass untouched, so the page can always load.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { WsFrameTracker } from './frames';

export interface ProxyTarget {
  host: string;
  port: number;
}

export interface FaultProxyOptions {
  /** Where to forward; read for every new connection (a restarted backend may move). */
  target: ProxyTarget | (() => ProxyTarget);
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
}

type Direction = 'toApp' | 'toGateway';

export interface CutOptions {
  /** Which stream is cut inside a frame; default toApp (gateway → app). */
  direction?: Direction;
  /** If no frame passes within this time, the link is cut anyway (default 2000 ms). */
  withinMs?: number;
  /** Let this many bytes through first (e.g. part of an upload), then cut inside the frame at that point. */
  afterBytes?: number;
  /** `open` (default): every link open now; `next`: the next link to open (e.g. after a reconnect). */
  scope?: 'open' | 'next';
}

export interface FaultStats {
  wsLinks: number;
  httpLinks: number;
  cutsMidFrame: number;
  cutsIdle: number;
  refused: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;

/** One proxied WebSocket: two directions, each with its own latency queue and frame tracker. */
class WsLink {
  private closed = false;
  private readonly pipes: Record<Direction, Pipe>;

  constructor(
    readonly app: Socket,
    readonly gateway: Socket,
    private readonly delay: () => number,
    private readonly onClose: (link: WsLink) => void,
  ) {
    this.pipes = {
      toApp: new Pipe(app, new WsFrameTracker({ skipHttpHead: true }), delay, () => this.destroy()),
      toGateway: new Pipe(gateway, new WsFrameTracker({ skipHttpHead: false }), delay, () => this.destroy()),
    };
    gateway.on('data', (chunk: Buffer) => this.pipes.toApp.push(chunk));
    app.on('data', (chunk: Buffer) => this.pipes.toGateway.push(chunk));
    for (const s of [app, gateway]) {
      s.on('error', () => this.destroy());
      // A clean end on one side ends the other once queued bytes are out.
      s.on('end', () => this.pipeFor(s === app ? 'toGateway' : 'toApp').end());
      s.on('close', () => this.destroy());
    }
  }

  /** Forwards the request head the app sent (already read to classify the connection). */
  forwardHead(head: Buffer, headLength: number): void {
    this.pipes.toGateway.pushRaw(head.subarray(0, headLength));
    if (head.length > headLength) this.pipes.toGateway.push(head.subarray(headLength));
  }

  pipeFor(direction: Direction): Pipe {
    return this.pipes[direction];
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.pipes.toApp.stop();
    this.pipes.toGateway.stop();
    this.app.destroy();
    this.gateway.destroy();
    this.onClose(this);
  }
}

type Queued = { at: number; bytes?: Buffer; then?: 'destroy' | 'end' };

class Pipe {
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastAt = 0;
  private stopped = false;
  private cut: { resolve(midFrame: boolean): void; fallback: NodeJS.Timeout; skip: number } | undefined;

  constructor(
    private readonly out: Socket,
    private readonly tracker: WsFrameTracker,
    private readonly delay: () => number,
    private readonly kill: () => void,
  ) {}

  /** Frame bytes from the other side. */
  push(chunk: Buffer): void {
    if (this.stopped) return;
    if (this.cut && this.cut.skip > 0) {
      // Bytes still allowed through before the cut: forward them, then cut in what follows.
      const pass = Math.min(this.cut.skip, chunk.length);
      this.cut.skip -= pass;
      this.tracker.observe(chunk.subarray(0, pass));
      this.enqueue({ at: 0, bytes: chunk.subarray(0, pass) });
      if (pass === chunk.length) return;
      chunk = chunk.subarray(pass);
    }
    if (this.cut) {
      const at = this.tracker.cutPoint(chunk);
      if (at !== undefined) {
        const { resolve, fallback } = this.cut;
        this.cut = undefined;
        clearTimeout(fallback);
        if (at > 0) this.enqueue({ at: 0, bytes: chunk.subarray(0, at) });
        this.enqueue({ at: 0, then: 'destroy' });
        this.stopped = true;
        resolve(true);
        return;
      }
    }
    this.tracker.observe(chunk);
    this.enqueue({ at: 0, bytes: chunk });
  }

  /** Bytes that are not frames (the request head), forwarded in order. */
  pushRaw(chunk: Buffer): void {
    this.enqueue({ at: 0, bytes: chunk });
  }

  end(): void {
    this.enqueue({ at: 0, then: 'end' });
  }

  armCut(withinMs: number, afterBytes = 0): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve(false);
      const fallback = setTimeout(() => {
        // Nothing passed in time: cut between frames instead (still an abrupt loss of the link).
        this.cut = undefined;
        resolve(false);
        this.kill();
      }, withinMs);
      this.cut = { resolve, fallback, skip: afterBytes };
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
    if (this.cut) {
      clearTimeout(this.cut.fallback);
      this.cut.resolve(false);
      this.cut = undefined;
    }
  }

  private enqueue(item: Queued): void {
    // Order is kept even when the latency changes: nothing overtakes what was queued before it.
    const at = Math.max(Date.now() + this.delay(), this.lastAt);
    this.lastAt = at;
    this.queue.push({ ...item, at });
    this.pump();
  }

  private pump(): void {
    if (this.timer) return;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const wait = next.at - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        return;
      }
      this.queue.shift();
      if (next.bytes && !this.out.destroyed) this.out.write(next.bytes);
      if (next.then === 'end') this.out.end();
      if (next.then === 'destroy') {
        // Let the partial frame reach the peer before the connection dies.
        const kill = this.kill;
        if (this.out.writableLength === 0) setImmediate(kill);
        else this.out.once('drain', () => setImmediate(kill));
        this.queue = [];
        return;
      }
    }
  }
}

export class FaultProxy {
  private readonly links = new Set<WsLink>();
  private readonly others = new Set<Socket>();
  private delayMs = 0;
  private armedForNext: { opts: CutOptions; resolve(mid: number): void }[] = [];
  private downUntil = 0;
  private downTimer: NodeJS.Timeout | undefined;
  private readonly counters = { httpLinks: 0, cutsMidFrame: 0, cutsIdle: 0, refused: 0, wsOpened: 0 };

  private constructor(
    private readonly server: Server,
    private readonly target: () => ProxyTarget,
    readonly port: number,
    readonly host: string,
  ) {}

  static async start(opts: FaultProxyOptions): Promise<FaultProxy> {
    const host = opts.host ?? '127.0.0.1';
    const target = typeof opts.target === 'function' ? opts.target : () => opts.target as ProxyTarget;
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('fault proxy: no port');
    const proxy = new FaultProxy(server, target, address.port, host);
    server.on('connection', (socket) => proxy.accept(socket));
    return proxy;
  }

  /** http://127.0.0.1:PORT — the origin the app is loaded from. */
  get origin(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** ws://127.0.0.1:PORT/ws */
  get wsUrl(): string {
    return `ws://${this.host}:${this.port}/ws`;
  }

  get isDown(): boolean {
    return Date.now() < this.downUntil;
  }

  /** Open WebSocket links. */
  get wsLinks(): number {
    return this.links.size;
  }

  stats(): FaultStats {
    return {
      wsLinks: this.counters.wsOpened,
      httpLinks: this.counters.httpLinks,
      cutsMidFrame: this.counters.cutsMidFrame,
      cutsIdle: this.counters.cutsIdle,
      refused: this.counters.refused,
    };
  }

  /** Latency added to every WebSocket chunk from now on, both directions. */
  setDelay(ms: number): void {
    this.delayMs = Math.max(0, ms);
  }

  /**
   * Every open link dies in the middle of its next frame in `direction` (or after `withinMs` if none
   * passes). Resolves with how many links were cut inside a frame.
   */
  async cutMidFrame(opts: CutOptions = {}): Promise<number> {
    if (opts.scope === 'next') return new Promise((resolve) => this.armedForNext.push({ opts, resolve }));
    const results = await Promise.all([...this.links].map((l) => this.armLink(l, opts)));
    return results.filter(Boolean).length;
  }

  private async armLink(link: WsLink, opts: CutOptions): Promise<boolean> {
    const mid = await link.pipeFor(opts.direction ?? 'toApp').armCut(opts.withinMs ?? 2000, opts.afterBytes ?? 0);
    if (mid) this.counters.cutsMidFrame++;
    else this.counters.cutsIdle++;
    return mid;
  }

  /** Every open link dies now (between or inside frames, wherever the bytes are). */
  cutAll(): number {
    const n = this.links.size;
    for (const link of [...this.links]) link.destroy();
    this.counters.cutsIdle += n;
    return n;
  }

  /** The link goes down: open WebSockets die and new ones are refused for `ms` (or until up()). */
  down(ms = Number.POSITIVE_INFINITY): void {
    this.downUntil = Date.now() + ms;
    if (this.downTimer) clearTimeout(this.downTimer);
    this.downTimer = undefined;
    if (Number.isFinite(ms)) this.downTimer = setTimeout(() => this.up(), ms);
    this.cutAll();
  }

  up(): void {
    this.downUntil = 0;
    if (this.downTimer) clearTimeout(this.downTimer);
    this.downTimer = undefined;
  }

  async close(): Promise<void> {
    this.up();
    for (const { resolve } of this.armedForNext.splice(0)) resolve(0);
    for (const link of [...this.links]) link.destroy();
    for (const s of this.others) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(app: Socket): void {
    app.setNoDelay(true);
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEAD_END);
      if (end < 0 && head.length < MAX_HEAD) return;
      app.off('data', onData);
      app.pause();
      const firstLine = head.subarray(0, Math.max(0, head.indexOf('\r\n'))).toString('latin1');
      const isWebSocket = /^GET \/ws[?\s]/.test(firstLine) && /\r\nupgrade:\s*websocket/i.test(head.toString('latin1'));
      if (isWebSocket) this.openWs(app, head, end < 0 ? head.length : end + HEAD_END.length);
      else this.openPlain(app, head);
    };
    app.on('data', onData);
    app.on('error', () => app.destroy());
  }

  private connectTarget(): Socket {
    const { host, port } = this.target();
    const upstream = connect({ host, port });
    upstream.setNoDelay(true);
    return upstream;
  }

  private openWs(app: Socket, head: Buffer, headLength: number): void {
    if (this.isDown) {
      this.counters.refused++;
      app.destroy();
      return;
    }
    const gateway = this.connectTarget();
    this.counters.wsOpened++;
    const link = new WsLink(
      app,
      gateway,
      () => this.delayMs,
      (l) => this.links.delete(l),
    );
    this.links.add(link);
    for (const { opts, resolve } of this.armedForNext.splice(0))
      void this.armLink(link, opts).then((mid) => resolve(mid ? 1 : 0));
    link.forwardHead(head, headLength);
    app.resume();
  }

  private openPlain(app: Socket, head: Buffer): void {
    this.counters.httpLinks++;
    const upstream = this.connectTarget();
    this.others.add(app);
    const done = () => {
      this.others.delete(app);
      app.destroy();
      upstream.destroy();
    };
    upstream.on('error', done);
    app.on('close', done);
    upstream.on('close', done);
    upstream.write(head);
    app.pipe(upstream);
    upstream.pipe(app);
    app.resume();
  }
}
