// Serving processes for the benchmarks: the site (app snapshot + bench pages) with the reference
// gateway at /ws, in memory, streaming as fast as it can and without a rate limit (the benchmarks
// drive it harder than a person would); or the site alone, with no gateway (the app offline).
import { createServer } from 'node:net';
import { startServer, type RunningServer } from '../../server/http/server';

export interface BenchServer {
  server: RunningServer;
  url: string;
  wsUrl: string;
  token: string;
  close(): Promise<void>;
}

export async function startBenchServer(siteDir: string, withGateway: boolean): Promise<BenchServer> {
  const token = `bench-${Math.random().toString(36).slice(2)}`;
  const server = await startServer({
    distDir: siteDir,
    host: '127.0.0.1',
    port: 0,
    ...(withGateway
      ? { token, gateway: { streamDelayMs: 0, rateLimit: { burst: 1_000_000, perSecond: 1_000_000 }, log: () => {} } }
      : {}),
    log: () => {},
  });
  return { server, url: server.url, wsUrl: server.wsUrl, token, close: () => server.close() };
}

/** A ws:// address where nothing listens (a stopped gateway): the app fails to connect at once. */
export async function deadGatewayUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `ws://127.0.0.1:${port}/ws`;
}
