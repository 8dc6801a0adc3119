import type { IncomingMessage } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, TLSSocket, type ConnectionOptions } from 'node:tls';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { FrameBoundaryTracker, serverCloseFrame } from './frame-boundary';
import { buildUpstreamRequest } from './upstream-request';
import { upstreamHostname, upstreamPort } from './upstream-url';

export interface WsProxyOptions {
  /** The real gateway, ws:// or wss:// (checked with parseUpstreamUrl). */
  upstream: URL;
  /** Extra TLS options for a wss:// upstream, e.g. `{ ca }` for a self-signed gateway. */
  upstreamTls?: ConnectionOptions;
  /** How long to wait for the gateway's handshake answer. */
  connectTimeoutMs?: number;
}

export interface WsProxy {
  /** Takes over an `upgrade` request for /ws and relays it to the gateway. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  connectionCount(): number;
  /** Ends every relayed connection (close 1001 to the app where a frame boundary allows). */
  close(): Promise<void>;
}

/** 1014 "Bad Gateway": the app is told plainly that the gateway behind us is unreachable or gone. */
const CLOSE_BAD_GATEWAY = 1014;
const CLOSE_GOING_AWAY = 1001;
const MAX_RESPONSE_HEAD = 16 * 1024;
/** A refusal's body relayed to the app at most (a gateway's 401/404 page). */
const MAX_REFUSAL_BYTES = 64 * 1024;
const REFUSAL_TIMEOUT_MS = 5_000;

/**
 * A byte-for-byte WebSocket relay: the app's upgrade request is forwarded to the gateway,
 * and from then on both TCP (or TLS) streams are piped unchanged, so frames, fragmentation,
 * compression, pings and close codes are exactly what the two ends sent. The proxy only reads
 * the gateway-to-app stream to know where frames end, so that when the gateway disappears it
 * can still give the app a clean close frame (1014) rather than a torn connection.
 */
export function createWsProxy(options: WsProxyOptions): WsProxy {
  const { upstream } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const sessions = new Set<ProxySession>();
  // Only used to answer the app's handshake ourselves when the gateway cannot be reached.
  const localHandshake = new WebSocketServer({ noServer: true });

  function handleUpgrade(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const session = new ProxySession(
      req,
      client,
      head,
      upstream,
      options.upstreamTls,
      connectTimeoutMs,
      localHandshake,
    );
    sessions.add(session);
    session.onDone = () => sessions.delete(session);
    session.start();
  }

  return {
    handleUpgrade,
    connectionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions].map((s) => s.shutdown(CLOSE_GOING_AWAY, 'server shutting down')));
      localHandshake.close();
    },
  };
}

/**
 * One relayed connection. States: `connecting` (nothing sent to the app yet), `relaying`
 * (the gateway's answer went to the app and the streams are joined), `local` (the gateway
 * failed before answering, so we finished the handshake ourselves to close it cleanly),
 * `done`.
 */
class ProxySession {
  onDone: () => void = () => undefined;
  private state: 'connecting' | 'relaying' | 'local' | 'done' = 'connecting';
  private upstreamSocket: Socket | undefined;
  /** Whether the gateway switched protocols (anything else is a plain HTTP answer relayed as is). */
  private switched = false;
  private readonly tracker = new FrameBoundaryTracker();
  private resolved = false;
  private readonly closed: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly req: IncomingMessage,
    private readonly client: Duplex,
    private readonly head: Buffer,
    private readonly upstream: URL,
    private readonly upstreamTls: ConnectionOptions | undefined,
    private readonly connectTimeoutMs: number,
    private readonly localHandshake: WebSocketServer,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  start(): void {
    const { client, upstream } = this;
    client.on('error', () => this.finish());
    client.on('close', () => this.finish());
    if (typeof (client as Socket).setNoDelay === 'function') (client as Socket).setNoDelay(true);

    const host = upstreamHostname(upstream);
    const port = upstreamPort(upstream);
    const socket =
      upstream.protocol === 'wss:'
        ? tlsConnect({
            host,
            port,
            ...(isIP(host) ? {} : { servername: host }),
            ALPNProtocols: ['http/1.1'],
            ...this.upstreamTls,
          })
        : netConnect({ host, port });
    this.upstreamSocket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.connectTimeoutMs, () => this.upstreamGone());
    socket.on('error', () => this.upstreamGone());
    socket.on('close', () => this.upstreamGone());
    socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => {
      // Nothing the app sent after its upgrade request (`head`) goes upstream before a 101: it could be a
      // second, pipelined HTTP request that skipped the header filter.
      socket.write(buildUpstreamRequest(this.req, upstream, this.req.socket instanceof TLSSocket));
      this.readResponseHead(socket);
    });
  }

  /** Relays the gateway's handshake answer, then joins the two streams only if it switched protocols. */
  private readResponseHead(socket: Socket): void {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > MAX_RESPONSE_HEAD) this.upstreamGone();
        return;
      }
      socket.off('data', onData);
      socket.setTimeout(0);
      if (this.state !== 'connecting') return;
      this.state = 'relaying';
      this.switched = /^HTTP\/1\.1 101[ \r]/.test(buffered.subarray(0, 13).toString('latin1'));
      if (!this.switched) return this.relayRefusal(socket, buffered, end + 4);
      this.tracker.observe(buffered.subarray(end + 4));
      socket.on('data', (more: Buffer) => this.tracker.observe(more));
      this.client.write(buffered);
      if (this.head.length > 0) socket.write(this.head);
      socket.pipe(this.client, { end: false });
      this.client.pipe(socket);
    };
    socket.on('data', onData);
  }

  /**
   * The gateway answered the upgrade with something other than 101 (401, 404…): that one answer goes to
   * the app, then both sides are closed. Nothing from the app is forwarded, so it cannot pipeline more
   * requests to the gateway over this connection.
   */
  private relayRefusal(socket: Socket, buffered: Buffer, bodyStart: number): void {
    const head = buffered.subarray(0, bodyStart).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const chunked = /\r\ntransfer-encoding: *[^\r]*chunked/i.test(head);
    const total = length ? bodyStart + Math.min(Number(length[1]), MAX_REFUSAL_BYTES) : bodyStart + MAX_REFUSAL_BYTES;
    let sent = 0;
    let tail = '';
    const done = () => {
      if (this.state !== 'relaying') return;
      socket.off('data', relay);
      this.endClient(CLOSE_BAD_GATEWAY, 'gateway refused');
    };
    const relay = (chunk: Buffer) => {
      const part = chunk.subarray(0, Math.max(0, total - sent));
      sent += part.length;
      if (part.length > 0) this.client.write(part);
      tail = (tail + part.toString('latin1')).slice(-5);
      // The answer is over: its length reached, a chunked body's last chunk, or no body at all.
      if (sent >= total || (chunked && tail === '0\r\n\r\n') || (!length && !chunked)) done();
    };
    socket.setTimeout(REFUSAL_TIMEOUT_MS, done);
    socket.on('data', relay);
    relay(buffered);
  }

  /** The gateway could not be reached, or went away: tell the app with a close frame if we can. */
  private upstreamGone(): void {
    if (this.state === 'connecting') this.closeLocally(CLOSE_BAD_GATEWAY, 'gateway unreachable');
    else if (this.state === 'relaying') this.endClient(CLOSE_BAD_GATEWAY, 'gateway connection lost');
  }

  /** No byte has reached the app yet: complete its handshake here and close at once. */
  private closeLocally(code: number, reason: string): void {
    this.state = 'local';
    this.upstreamSocket?.destroy();
    this.localHandshake.handleUpgrade(this.req, this.client, this.head, (ws) => {
      ws.on('error', () => undefined);
      ws.close(code, reason);
    });
  }

  /** After the gateway's answer: a close frame where the stream allows one, then end the TCP stream. */
  private endClient(code: number, reason: string): void {
    this.state = 'done';
    const socket = this.upstreamSocket;
    if (socket) {
      socket.unpipe(this.client);
      this.client.unpipe(socket);
      socket.destroy();
    }
    // Keep reading (and dropping) what the app still sends, so its close reply and FIN are seen.
    this.client.resume();
    if (this.switched && this.tracker.atBoundary && !this.tracker.sawClose && this.client.writable) {
      this.client.write(serverCloseFrame(code, reason));
    }
    this.client.end();
    // A peer that never answers the close must not hold the socket open.
    setTimeout(() => this.client.destroy(), 2_000).unref();
  }

  async shutdown(code: number, reason: string): Promise<void> {
    if (this.state === 'relaying') this.endClient(code, reason);
    else if (this.state !== 'done') {
      this.state = 'done';
      this.upstreamSocket?.destroy();
      this.client.destroy();
    }
    await this.closed;
  }

  private finish(): void {
    if (this.resolved) return;
    this.resolved = true;
    this.state = 'done';
    this.upstreamSocket?.destroy();
    this.client.destroy();
    this.onDone();
    this.resolveClosed();
  }
}
