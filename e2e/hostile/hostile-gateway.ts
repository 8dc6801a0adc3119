// A gateway that speaks the protocol just enough to be paired with, then sends whatever a test
// tells it to: hostile text in every field, malformed and oversized frames, floods. The app is served
// by the real serving process in proxy mode (/ws relayed byte for byte), so the page's origin, CSP
// and socket are exactly what a user gets.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { startServer, type RunningServer } from '../../server/http/server';
import { pairingLink } from '../support/server';

export type Json = Record<string, unknown>;
export type Frame = { v?: number; type: string; id?: number; chat_id?: string; thread_id?: string; payload?: unknown };

export interface HostileOptions {
  token: string;
  /** hello.ack channels (the default channel `web:default` is added first). */
  channels?: Json[];
  /** A gateway with no channel at all: hello.ack lists none and `channel.list` answers an empty list. */
  noChannels?: boolean;
  /** How a wrong token is refused: an `error{auth}` then close (the spec's way, the default), or a bare close 1008. */
  refuse?: 'error' | 'close';
  /** Answers for requests the default handlers do not cover, or to override them. */
  onRequest?: (frame: Frame, reply: (f: Frame) => void, socket: WebSocket) => boolean | void;
}

class HostileGateway {
  readonly sockets = new Set<WebSocket>();
  cursor = 1;

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly port: number,
    private readonly opts: HostileOptions,
  ) {}

  static async start(opts: HostileOptions): Promise<HostileGateway> {
    const http = createServer((_req, res) => res.writeHead(426).end());
    const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
    http.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws)));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const gw = new HostileGateway(http, wss, (http.address() as AddressInfo).port, opts);
    wss.on('connection', (ws) => gw.accept(ws));
    return gw;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  /** Sends a frame, raw text, or bytes (as a binary frame) to every paired socket. */
  emit(frame: Frame | string | Buffer): void {
    const data =
      typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify({ v: 1, payload: {}, ...frame });
    for (const ws of this.sockets) ws.send(data, { binary: Buffer.isBuffer(data) });
  }

  /** Resolves once the socket's buffered bytes have been handed to the OS (a flood must not outrun memory). */
  async drain(): Promise<void> {
    for (const ws of this.sockets) {
      while (ws.bufferedAmount > 0) await new Promise((r) => setTimeout(r, 5));
    }
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
    this.http.closeAllConnections();
    await new Promise<void>((r) => this.http.close(() => r()));
  }

  private accept(ws: WebSocket): void {
    let paired = false;
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let frame: Frame;
      try {
        frame = JSON.parse(String(data));
      } catch {
        return;
      }
      const reply = (f: Frame) => ws.send(JSON.stringify({ v: 1, payload: {}, ...f }));
      if (!paired) {
        const p = (frame.payload ?? {}) as Json;
        if (frame.type !== 'hello' || p.token !== this.opts.token) {
          if (this.opts.refuse === 'close') ws.close(1008, 'invalid token');
          else {
            reply({ type: 'error', id: frame.id, payload: { code: 'auth', message: 'no' } });
            ws.close(1008);
          }
          return;
        }
        paired = true;
        this.sockets.add(ws);
        reply({
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
              push: 'none',
            },
            sync_cursor: this.cursor,
            channels: this.opts.noChannels
              ? []
              : [
                  { chat_id: 'web:default', name: 'General', kind: 'default', is_default: true },
                  ...(this.opts.channels ?? []),
                ],
          },
        });
        return;
      }
      if (this.opts.onRequest?.(frame, reply, ws)) return;
      this.answer(frame, reply);
    });
  }

  private answer(frame: Frame, reply: (f: Frame) => void): void {
    const p = (frame.payload ?? {}) as Json;
    switch (frame.type) {
      case 'ping':
        return reply({ type: 'pong', id: frame.id, payload: { ts: p.ts } });
      case 'sync':
        return reply({ type: 'sync.done', id: frame.id, payload: { cursor: this.cursor } });
      case 'history':
        return reply({
          type: 'history',
          id: frame.id,
          chat_id: frame.chat_id,
          thread_id: frame.thread_id,
          payload: { messages: [], has_more: false },
        });
      case 'channel.list':
        if (this.opts.noChannels) return reply({ type: 'channel.list', id: frame.id, payload: { channels: [] } });
        return reply({ type: 'error', id: frame.id, payload: { code: 'unsupported', message: 'Not here.' } });
      case 'commands.catalog':
        return reply({ type: 'commands.catalog', id: frame.id, payload: { commands: [] } });
      case 'commands.complete':
        return reply({ type: 'commands.complete', id: frame.id, payload: { prefix: p.prefix, matches: [] } });
      case 'message.send':
        return reply({
          type: 'message',
          id: frame.id,
          chat_id: frame.chat_id,
          thread_id: frame.thread_id,
          payload: {
            message_id: `u-${frame.id}-${Math.random().toString(36).slice(2)}`,
            role: 'user',
            text: p.text,
            client_id: p.client_id,
            ts: Date.now(),
          },
        });
      case 'read.receipt':
      case 'fcm.register':
        return;
      default:
        if (frame.id !== undefined)
          reply({ type: 'error', id: frame.id, payload: { code: 'unsupported', message: 'Not here.' } });
    }
  }
}

export interface HostileSetup {
  gateway: HostileGateway;
  server: RunningServer;
  origin: string;
  token: string;
  pairingLink: string;
  close(): Promise<void>;
}

/** The real serving process in proxy mode in front of a hostile gateway. */
export async function startHostile(opts: Omit<HostileOptions, 'token'> = {}): Promise<HostileSetup> {
  const token = 'hostile-' + Math.random().toString(36).slice(2);
  const gateway = await HostileGateway.start({ ...opts, token });
  const server = await startServer({
    distDir: resolve('dist'),
    host: '127.0.0.1',
    port: 0,
    upstream: gateway.url,
    log: () => {},
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    gateway,
    server,
    origin,
    token,
    pairingLink: pairingLink(origin, token),
    async close() {
      await server.close();
      await gateway.close();
    },
  };
}
