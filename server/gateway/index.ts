// The reference Iris gateway: the peer every test trusts and the embedded demo (spec README).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DemoAgent } from './agent/demo';
import { clientIp } from '../http/client-ip';
import { ClientSession } from './clientsession';
import { HelloBackoff } from './hello-backoff';
import type { Agent } from './agent';
import type { GatewayContext } from './context';
import { Hub } from './hub';
import { resolveOptions, type GatewayOptions } from './options';
import { PushDispatcher } from './push';
import { route } from './router';
import { GatewayStore } from './store';

export type { GatewayOptions } from './options';
export type { PushPayload, PushSink, PushTarget } from './types';
export type { StoredMessage } from './conversations';
export type { MediaRecord } from './mediastore';
export { DEFAULT_CHAT_ID } from './directory';

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

export function createGateway(options: GatewayOptions): Gateway {
  const opts = resolveOptions(options);
  const log = options.log ?? (() => {});
  const store = new GatewayStore(options.dataDir, log, options.outboxLimit ?? 50_000);
  const hub = new Hub(store.devices, options.quirks);
  const agent = options.agent ?? new DemoAgent();
  const push = new PushDispatcher(options.push, store.devices, hub, log);
  const ctx: GatewayContext = {
    opts,
    raw: options,
    store,
    hub,
    agent,
    push,
    helloBackoff: new HelloBackoff(options.helloBackoff),
    log,
  };
  agent.attach({ store, hub, push, log, streamDelayMs: opts.streamDelayMs, quirks: options.quirks });
  agent.recover();

  // Text frames over the limit are answered with an error and ignored; the socket limit sits well
  // above it (and above a 256 KiB media chunk) so only absurd frames close the socket (1009).
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: Math.max(4 * opts.maxFrameBytes, 2 * MiB),
    perMessageDeflate: false,
  });
  const sessions = new Set<ClientSession>();
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
        const session = new ClientSession(ws, ctx, route, clientIp(req), socket);
        sessions.add(session);
        ws.on('close', () => sessions.delete(session));
      });
    },
    connectionCount: () => hub.count(),
    async close() {
      if (closed) return;
      closed = true;
      agent.close();
      for (const s of sessions) s.close();
      store.persistence.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
