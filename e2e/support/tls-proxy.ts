// A TLS-terminating reverse proxy, as Caddy is in README's "On your phone" recipe: it takes https and
// wss on its own port, forwards every request and every WebSocket upgrade (/ws) to our server over plain
// HTTP, and keeps the Host header as the browser sent it (the server checks a socket's Origin against it).
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TlsProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** Where it forwards to: set once our server runs (it must know the proxy's address first). */
  forwardTo(port: number): void;
  close(): Promise<void>;
}

export async function startTlsProxy(tls: { cert: Buffer; key: Buffer }): Promise<TlsProxy> {
  let target = 0;
  const sockets = new Set<Socket>();
  const server = createHttpsServer(tls, (req, res) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end('bad gateway'));
    req.pipe(upstream);
  });
  // A WebSocket upgrade goes through as bytes: the request line and headers as received, then both ways.
  server.on('upgrade', (req, client: Socket, head: Buffer) => {
    const upstream = connect(target, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    forwardTo(port) {
      target = port;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
