// A WebSocket proxy between the client and the real gateway, for faults the gateway never makes on
// its own: a connection cut at an exact frame, injected garbage, a gateway without an extension.
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

export interface Relay {
  client: WebSocket;
  gateway: WebSocket;
}

export type Direction = 'toGateway' | 'toClient';

/** Return the data to forward, null to swallow it, or 'cut' to drop the whole connection right after. */
export type Tap = (data: Buffer, isBinary: boolean, relay: Relay) => Buffer | string | null | 'cut' | 'cut-before';

export class GatewayProxy {
  readonly relays = new Set<Relay>();
  taps: Partial<Record<Direction, Tap>> = {};
  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
    private upstream: string,
  ) {}

  static async start(upstream: string, port = 0): Promise<GatewayProxy> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', () => resolve());
      wss.once('error', reject);
    });
    const proxy = new GatewayProxy(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`, upstream);
    wss.on('connection', (client) => proxy.relay(client));
    return proxy;
  }

  /** Point new connections somewhere else (a restarted gateway on another port). */
  retarget(upstream: string): void {
    this.upstream = upstream;
  }

  /** Send raw text to every connected client, as if the gateway had sent it. */
  inject(text: string): void {
    for (const r of this.relays) r.client.send(text);
  }

  /** Cut every connection (both sides), as a network failure would. */
  cutAll(): void {
    for (const r of [...this.relays]) cut(r);
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private relay(client: WebSocket): void {
    const gateway = new WebSocket(this.upstream, { perMessageDeflate: false });
    const relay: Relay = { client, gateway };
    this.relays.add(relay);
    const early: [RawData, boolean][] = [];
    const forward = (dir: Direction, to: WebSocket, data: RawData, isBinary: boolean) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      const out = this.taps[dir] ? this.taps[dir]!(buf, isBinary, relay) : buf;
      if (out === 'cut-before') return cut(relay);
      if (out === null) return;
      if (out === 'cut') {
        to.send(buf, { binary: isBinary }, () => cut(relay));
        return;
      }
      to.send(out, { binary: isBinary });
    };
    client.on('message', (data, isBinary) => {
      if (gateway.readyState !== WebSocket.OPEN) early.push([data, isBinary]);
      else forward('toGateway', gateway, data, isBinary);
    });
    gateway.on('open', () => {
      for (const [data, isBinary] of early.splice(0)) forward('toGateway', gateway, data, isBinary);
    });
    gateway.on('message', (data, isBinary) => forward('toClient', client, data, isBinary));
    const end = () => cut(relay);
    client.on('close', end);
    gateway.on('close', end);
    client.on('error', end);
    gateway.on('error', end);
    const drop = () => this.relays.delete(relay);
    client.on('close', drop);
  }
}

function cut(relay: Relay): void {
  relay.client.terminate();
  relay.gateway.terminate();
}
