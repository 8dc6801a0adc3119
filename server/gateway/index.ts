// The reference Iris gateway: the peer every test trusts and the embedded demo (spec README).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DemoAgent } from './agent/demo';
import { clientIp } from '../http/client-ip';
import { Connection } from './connection';
import { HelloBackoff } from './hello-backoff';
import type { Agent } from './agent';
import type { GatewayContext, ResolvedOptions } from './context';
import { Hub } from './hub';
import { PushDispatcher } from './push';
import { GatewayStore } from './store';
import type { GatewayOptions } from './types';

export type { Agent, AgentDescription } from './agent';
export type { GatewayOptions, PushMode, PushPayload, PushSink, PushTarget } from './types';
export type { GatewayQuirks } from './quirks';
export { GatewayStore } from './store';
export type { StoredMessage } from './conversations';
export type { DeviceRecord, OutboxEntry } from './devices';
export type { MediaRecord } from './mediastore';
export { DEFAULT_CHAT_ID, DEMO_CHAT_ID } from './directory';
export { COMMANDS } from './agent/commands';

export interface Gateway {
  /** Accept a WebSocket upgrade (an http server's 'upgrade' event on /ws). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Live, paired sockets. */
  connectionCount(): number;
  /** Everything the gateway remembers (tests read it). */
  store: GatewayStore;
  /** Which agent answers (demo or Hermes), as Settings shows it. */
  agent: Agent;
  /** Close every socket, stop the agent and flush persistence. */
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

function resolveOptions(opts: GatewayOptions): ResolvedOptions {
  if (typeof opts.token !== 'string' || opts.token === '') throw new Error('createGateway: a non-empty token is required');
  return {
    token: opts.token,
    streamDelayMs: Math.max(0, opts.streamDelayMs ?? 40),
    maxMediaBytes: opts.maxMediaBytes ?? 20 * MiB,
    maxFrameBytes: opts.maxFrameBytes ?? MiB,
    rateLimit: opts.rateLimit ?? { burst: 300, perSecond: 100 },
  };
}

export function createGateway(options: GatewayOptions): Gateway {
  const opts = resolveOptions(options);
  const log = options.log ?? (() => {});
  const store = new GatewayStore(options.dataDir, log, options.outboxLimit ?? 50_000);
  const hub = new Hub(store.devices, options.quirks);
  const agent = options.agent ?? new DemoAgent();
  const push = new PushDispatcher(options.push, store.devices, hub, log);
  const ctx: GatewayContext = { opts, raw: options, store, hub, agent, push, helloBackoff: new HelloBackoff(options.helloBackoff), log };
  agent.attach(ctx);
  agent.recover();

  // Text frames over the limit are answered with an error and ignored; the socket limit sits well
  // above it (and above a 256 KiB media chunk) so only absurd frames close the socket (1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(4 * opts.maxFrameBytes, 2 * MiB), perMessageDeflate: false });
  const connections = new Set<Connection>();
  let closed = false;

  return {
    store,
    agent,
    handleUpgrade(req, socket, head) {
      if (closed) {
        socket.destroy();
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new Connection(ws, ctx, clientIp(req));
        connections.add(conn);
        ws.on('close', () => connections.delete(conn));
      });
    },
    connectionCount: () => hub.count(),
    async close() {
      if (closed) return;
      closed = true;
      agent.close();
      for (const c of connections) c.close();
      store.persistence.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
