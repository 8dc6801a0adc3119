// A WebSocket server whose replies the test writes: for testing the connection's own rules
// (ids, timeouts, heartbeat, pairing) without a gateway's behaviour in the way.
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseClientFrame, type ClientFrame } from '../protocol';

export interface ScriptedSocket {
  ws: WebSocket;
  frames: ClientFrame[];
  raw: string[];
  send(frame: object | string): void;
}

export class ScriptedServer {
  readonly sockets: ScriptedSocket[] = [];
  private listeners: ((s: ScriptedSocket, f: ClientFrame) => void)[] = [];
  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedServer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const server = new ScriptedServer(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`);
    wss.on('connection', (ws) => {
      const socket: ScriptedSocket = {
        ws,
        frames: [],
        raw: [],
        send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify({ v: 1, payload: {}, ...frame })),
      };
      server.sockets.push(socket);
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = data.toString();
        socket.raw.push(text);
        const frame = parseClientFrame(text);
        if (!frame) return;
        socket.frames.push(frame);
        for (const l of server.listeners) l(socket, frame);
      });
    });
    return server;
  }

  /** Answer every frame the client sends (hello, requests…). */
  onFrame(fn: (socket: ScriptedSocket, frame: ClientFrame) => void): void {
    this.listeners.push(fn);
  }

  /** Replies hello.ack to hello (the usual start). */
  acceptHello(): void {
    this.onFrame((s, f) => {
      if (f.type === 'hello') s.send({ type: 'hello.ack', payload: { server_caps: {}, sync_cursor: 0, channels: [] } });
    });
  }

  get last(): ScriptedSocket | undefined {
    return this.sockets[this.sockets.length - 1];
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
