/** Test-only: serves push routes on 127.0.0.1 the way the serving process mounts them (before static files). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  origin: string;
  close(): Promise<void>;
}

export async function serveOnLoopback(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => boolean,
): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    if (handle(req, res)) return;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('static file');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
