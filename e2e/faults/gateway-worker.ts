// The serving process (app + reference gateway on one port) in a worker thread, so the fault suite
// can kill it abruptly (Worker.terminate stops it mid-instruction, with no flush, like a crash) and
// start it again on the same port and data directory in about a second.
import { parentPort, workerData } from 'node:worker_threads';
import { startServer } from '../../server/http/server';
import type { MediaRecord, StoredMessage } from '../../server/gateway';

export interface WorkerConfig {
  distDir: string;
  dataDir: string;
  token: string;
  port: number;
  streamDelayMs: number;
}

export type WorkerRequest =
  { id: number; op: 'query'; lanes: string[]; devices: string[] } | { id: number; op: 'close' };

export interface GatewaySnapshot {
  messages: Record<string, StoredMessage[]>;
  cursors: Record<string, number>;
  /** Turns streaming now (the demo agent's in-flight list). */
  inflight: number;
  connections: number;
  media: MediaRecord[];
}

const config = workerData as WorkerConfig;
const port = parentPort!;

try {
  const server = await startServer({
    distDir: config.distDir,
    dataDir: config.dataDir,
    token: config.token,
    host: '127.0.0.1',
    port: config.port,
    push: false,
    gateway: { streamDelayMs: config.streamDelayMs },
    log: () => {},
  });
  const gateway = server.gateway!;
  port.on('message', (req: WorkerRequest) => {
    if (req.op === 'close') {
      void server.close().then(() => port.postMessage({ id: req.id, ok: true }));
      return;
    }
    const snapshot: GatewaySnapshot = {
      messages: Object.fromEntries(req.lanes.map((lane) => [lane, gateway.store.messages(lane)])),
      cursors: Object.fromEntries(req.devices.map((d) => [d, gateway.store.cursor(d)])),
      inflight: gateway.store.agent.inflight.size,
      connections: gateway.connectionCount(),
      media: gateway.store.media.list(),
    };
    port.postMessage({ id: req.id, ok: true, snapshot });
  });
  port.postMessage({ ready: true, port: server.port });
} catch (error) {
  port.postMessage({ ready: false, error: error instanceof Error ? error.message : String(error) });
}
