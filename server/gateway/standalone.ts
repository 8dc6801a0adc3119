// A gateway on its own HTTP server (tests, benchmarks): ws://127.0.0.1:PORT/ws.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type Gateway, type GatewayOptions } from './index';

export interface StandaloneGateway {
  url: string;
  port: number;
  gateway: Gateway;
  close(): Promise<void>;
}

export async function startGateway(opts: GatewayOptions & { port?: number }): Promise<StandaloneGateway> {
  const { port: wanted = 0, ...gatewayOpts } = opts;
  const gateway = createGateway(gatewayOpts);
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket only: connect to /ws\n');
  });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    gateway.handleUpgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    port,
    gateway,
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
