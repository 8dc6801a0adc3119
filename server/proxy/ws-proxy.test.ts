import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { useGateway } from '../gateway/testing';
import { startServer, type RunningServer } from '../http/server';
import {
  closed,
  freePort,
  hasOpenssl,
  helloFrame,
  makeFakeDist,
  makeSelfSignedCert,
  nextFrameOfType,
  openSocket,
  upgradeStatus,
} from '../http/testing/fixtures';

// The reference gateway, for the test that pairs through the proxy; registered before the clean-ups below,
// so it closes after the proxy in front of it.
const reference = useGateway({ token: 'proxy-token-abcdefghijkl', startBeforeEach: false });
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyTo(
  upstream: string,
  extra: Partial<Parameters<typeof startServer>[0]> = {},
): Promise<RunningServer> {
  const dist = makeFakeDist();
  cleanups.push(() => dist.cleanup());
  const server = await startServer({ distDir: dist.distDir, upstream, ...extra });
  cleanups.push(() => server.close());
  return server;
}

interface Upstream {
  wss: WebSocketServer;
  port: number;
  url: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
  sockets: WebSocket[];
  next(): Promise<WebSocket>;
}

/** A plain `ws` server standing in for a real gateway. */
async function startUpstream(options: WebSocket.ServerOptions = {}): Promise<Upstream> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const port = (wss.address() as AddressInfo).port;
  const requests: Upstream['requests'] = [];
  const sockets: WebSocket[] = [];
  const waiting: ((ws: WebSocket) => void)[] = [];
  wss.on('connection', (ws, req) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    sockets.push(ws);
    waiting.shift()?.(ws);
  });
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve(undefined));
      }),
  );
  return {
    wss,
    port,
    url: `ws://127.0.0.1:${port}/gateway/path?x=1`,
    requests,
    sockets,
    // Call before the app connects: resolves with the gateway side of the next connection.
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

function nextMessage(ws: WebSocket): Promise<{ data: Buffer; isBinary: boolean }> {
  return new Promise((resolve) => ws.once('message', (data, isBinary) => resolve({ data: data as Buffer, isBinary })));
}

describe('the /ws proxy to a real gateway', () => {
  it('relays text and binary frames both ways, unchanged', async () => {
    const upstream = await startUpstream();
    const server = await proxyTo(upstream.url);
    const serverSide = upstream.next();
    const { ws } = await openSocket(server.wsUrl);
    const gw = await serverSide;

    const text = 'héllo → gateway ✓';
    const binary = randomBytes(300_000);
    const gotText = nextMessage(gw);
    ws.send(text);
    expect(await gotText).toEqual({ data: Buffer.from(text), isBinary: false });
    const gotBinary = nextMessage(gw);
    ws.send(binary);
    const up = await gotBinary;
    expect(up.isBinary).toBe(true);
    expect(up.data.equals(binary)).toBe(true);

    const back = nextMessage(ws);
    gw.send('{"type":"pong"}');
    expect(await back).toEqual({ data: Buffer.from('{"type":"pong"}'), isBinary: false });
    const backBinary = nextMessage(ws);
    gw.send(binary.subarray(0, 1000));
    const down = await backBinary;
    expect(down.isBinary).toBe(true);
    expect(down.data.equals(binary.subarray(0, 1000))).toBe(true);
    ws.close();
    await closed(ws);
  });

  it("forwards the upgrade to the gateway's path and host, with the app's subprotocol, and without cookies", async () => {
    const upstream = await startUpstream({
      handleProtocols: (protocols) => (protocols.has('iris.v1') ? 'iris.v1' : false),
    });
    const server = await proxyTo(upstream.url);
    const { ws } = await openSocket(server.wsUrl, { headers: { Cookie: 'other-app=secret' } }, ['iris.v1']);
    expect(ws.protocol).toBe('iris.v1');
    const [request] = upstream.requests;
    expect(request!.url).toBe('/gateway/path?x=1');
    expect(request!.headers.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(request!.headers['x-forwarded-host']).toBe(`127.0.0.1:${server.port}`);
    expect(request!.headers['x-forwarded-proto']).toBe('http');
    ws.close();
    await closed(ws);
  });

  it('propagates close codes and reasons both ways', async () => {
    const upstream = await startUpstream();
    const server = await proxyTo(upstream.url);

    const gwSide1 = upstream.next();
    const a = await openSocket(server.wsUrl);
    const gw1 = await gwSide1;
    const gwClosed = new Promise<{ code: number; reason: string }>((resolve) =>
      gw1.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    a.ws.close(4001, 'bye from the app');
    expect(await gwClosed).toEqual({ code: 4001, reason: 'bye from the app' });
    expect(await closed(a.ws)).toEqual({ code: 4001, reason: 'bye from the app' });

    const gwSide2 = upstream.next();
    const b = await openSocket(server.wsUrl);
    const gw2 = await gwSide2;
    const appClosed = closed(b.ws);
    gw2.close(4002, 'bye from the gateway');
    expect(await appClosed).toEqual({ code: 4002, reason: 'bye from the gateway' });
    await waitFor(() => server.proxy!.connectionCount() === 0);
  });

  it('closes the app cleanly with 1014 when the gateway is unreachable', async () => {
    const server = await proxyTo(`ws://127.0.0.1:${await freePort()}/ws`);
    const { ws } = await openSocket(server.wsUrl);
    expect(await closed(ws)).toEqual({ code: 1014, reason: 'gateway unreachable' });
  });

  it('closes the app cleanly with 1014 when the gateway drops the connection', async () => {
    const upstream = await startUpstream();
    const server = await proxyTo(upstream.url);
    const gwSide = upstream.next();
    const { ws } = await openSocket(server.wsUrl);
    const gw = await gwSide;
    const appClosed = closed(ws);
    gw.terminate(); // TCP reset, no close frame
    expect(await appClosed).toEqual({ code: 1014, reason: 'gateway connection lost' });
  });

  it("passes the gateway's refusal of the handshake through to the app", async () => {
    const upstream = await startUpstream({ verifyClient: () => false });
    const server = await proxyTo(upstream.url);
    expect(await upgradeStatus(server.wsUrl)).toBe(401);
  });

  it('after a refusal (404, keep-alive) nothing more reaches the gateway: a pipelined request with cookies is never forwarded', async () => {
    const fromApp: Buffer[] = [];
    const raw = createNetServer((socket) => {
      cleanups.push(() => socket.destroy());
      socket.on('data', (d: Buffer) => {
        fromApp.push(d);
        if (Buffer.concat(fromApp).includes('\r\n\r\n') && fromApp.length === 1) {
          socket.write(
            'HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\nConnection: keep-alive\r\n\r\nnot here\n',
          );
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => raw.close(resolve)));
    const server = await proxyTo(`ws://127.0.0.1:${(raw.address() as AddressInfo).port}/ws`);

    const app = connect(server.port, '127.0.0.1');
    cleanups.push(() => app.destroy());
    const toApp: Buffer[] = [];
    app.on('data', (d: Buffer) => toApp.push(d));
    const ended = new Promise<void>((resolve) => app.once('close', () => resolve()));
    await new Promise<void>((resolve) => app.once('connect', () => resolve()));
    const smuggled =
      'GET /admin HTTP/1.1\r\nHost: gateway\r\nCookie: session=secret\r\nAuthorization: Bearer stolen\r\nX-Forwarded-For: 10.0.0.1\r\n\r\n';
    app.write(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n${smuggled}`,
    );
    // And once more after the answer, on the same connection.
    app.once('data', () => app.write(smuggled));
    await ended;
    expect(Buffer.concat(toApp).toString('latin1')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n[\s\S]*\r\n\r\nnot here\n$/);
    const upstreamSaw = Buffer.concat(fromApp).toString('latin1');
    expect(upstreamSaw.match(/HTTP\/1\.1\r\n/g)).toHaveLength(1);
    expect(upstreamSaw).not.toContain('/admin');
    expect(upstreamSaw).not.toContain('secret');
    expect(upstreamSaw).not.toContain('stolen');
  });

  it('tells connected apps the server is going away (1001) when it stops', async () => {
    const upstream = await startUpstream();
    const server = await proxyTo(upstream.url);
    const { ws } = await openSocket(server.wsUrl);
    const appClosed = closed(ws);
    await server.close();
    expect(await appClosed).toEqual({ code: 1001, reason: 'server shutting down' });
  });

  it('pairs with the reference gateway through the proxy', async () => {
    const token = 'proxy-token-abcdefghijkl';
    const gateway = await reference.restart();
    const server = await proxyTo(gateway.url);
    const { ws } = await openSocket(server.wsUrl);
    const ack = nextFrameOfType(ws, ['hello.ack', 'error']);
    ws.send(helloFrame(token));
    expect((await ack).type).toBe('hello.ack');
    expect(gateway.gateway.connectionCount()).toBe(1);

    const refused = await openSocket(server.wsUrl);
    const error = nextFrameOfType(refused.ws, ['hello.ack', 'error']);
    refused.ws.send(helloFrame('wrong-token'));
    expect((await error).payload.code).toBe('auth');
    await closed(refused.ws);
    ws.close();
    await closed(ws);
  });

  it('relays to a wss:// gateway, verifying its certificate', async (ctx) => {
    if (!hasOpenssl()) ctx.skip('openssl is not installed, so no test certificate can be made');
    const certDir = mkdtempSync(join(tmpdir(), 'iris-upstream-cert-'));
    cleanups.push(() => rmSync(certDir, { recursive: true, force: true }));
    const { cert, key } = makeSelfSignedCert(certDir);
    const https = createHttpsServer({ cert, key });
    const wss = new WebSocketServer({ server: https });
    wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const c of wss.clients) c.terminate();
          https.close(resolve);
        }),
    );
    const url = `wss://localhost:${(https.address() as AddressInfo).port}/ws`;

    const trusting = await proxyTo(url, { upstreamTls: { ca: cert } });
    const { ws } = await openSocket(trusting.wsUrl);
    const echo = nextMessage(ws);
    ws.send('over tls');
    expect((await echo).data.toString()).toBe('over tls');
    ws.close();
    await closed(ws);

    const untrusting = await proxyTo(url);
    const refused = await openSocket(untrusting.wsUrl);
    expect(await closed(refused.ws)).toEqual({ code: 1014, reason: 'gateway unreachable' });
  });
});

describe('byte for byte', () => {
  it('relays the exact bytes both ways: fragments, control frames, masks, odd lengths', async () => {
    // A raw TCP "gateway" that completes the handshake by hand and records every byte.
    const fromApp: Buffer[] = [];
    let connected!: (socket: Socket) => void;
    const gotConnection = new Promise<Socket>((resolve) => (connected = resolve));
    const raw = createNetServer((socket) => {
      cleanups.push(() => socket.destroy());
      let head = Buffer.alloc(0);
      const onHead = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) return;
        socket.off('data', onHead);
        const key = /sec-websocket-key: *(\S+)/i.exec(head.toString('latin1'))![1]!;
        const accept = createHash('sha1')
          .update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11')
          .digest('base64');
        socket.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        if (head.length > end + 4) fromApp.push(head.subarray(end + 4));
        socket.on('data', (d: Buffer) => fromApp.push(d));
        connected(socket);
      };
      socket.on('data', onHead);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => raw.close(resolve)));
    const port = (raw.address() as AddressInfo).port;
    const server = await proxyTo(`ws://127.0.0.1:${port}/ws`);

    // A raw TCP "app" that sends its own handshake and frames.
    const app = connect(server.port, '127.0.0.1');
    const toApp: Buffer[] = [];
    let appHead = Buffer.alloc(0);
    let switched = false;
    app.on('data', (d: Buffer) => {
      if (switched) return void toApp.push(d);
      appHead = Buffer.concat([appHead, d]);
      const end = appHead.indexOf('\r\n\r\n');
      if (end !== -1) {
        switched = true;
        if (appHead.length > end + 4) toApp.push(appHead.subarray(end + 4));
      }
    });
    await new Promise<void>((resolve) => app.once('connect', () => resolve()));
    app.write(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
    const gateway = await gotConnection;
    await waitFor(() => switched);
    expect(appHead.toString('latin1')).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);

    const mask = (payload: Buffer, key: Buffer) => Buffer.from(payload.map((b, i) => b ^ key[i % 4]!));
    const k = Buffer.from([0x12, 0x34, 0x56, 0x78]);
    const appBytes = Buffer.concat([
      Buffer.from([0x01, 0x83]),
      k,
      mask(Buffer.from('hel'), k), // text fragment, masked
      Buffer.from([0x80, 0x82]),
      k,
      mask(Buffer.from('lo'), k), // continuation
      Buffer.from([0x89, 0x84]),
      k,
      mask(Buffer.from('ping'), k), // ping with payload
      Buffer.from([0x82, 0xfe, 0x01, 0x2c]),
      k,
      mask(Buffer.alloc(300, 0xab), k), // binary, 16-bit length
    ]);
    const gatewayBytes = Buffer.concat([
      Buffer.from([0x8a, 0x04]),
      Buffer.from('ping'), // pong
      Buffer.from([0x01, 0x02]),
      Buffer.from('ab'), // fragmented text
      Buffer.from([0x80, 0x01]),
      Buffer.from('c'),
      Buffer.from([0x82, 0x7e, 0x01, 0x00]),
      Buffer.alloc(256, 0xcd), // binary
      Buffer.from([0xc1, 0x03]),
      Buffer.from([1, 2, 3]), // RSV1 set (as a compressed frame would have)
    ]);
    // Split the writes at awkward places so frames cross TCP chunks.
    app.write(appBytes.subarray(0, 5));
    gateway.write(gatewayBytes.subarray(0, 3));
    app.write(appBytes.subarray(5));
    gateway.write(gatewayBytes.subarray(3));
    await waitFor(
      () => Buffer.concat(fromApp).length >= appBytes.length && Buffer.concat(toApp).length >= gatewayBytes.length,
    );
    expect(Buffer.concat(fromApp).equals(appBytes)).toBe(true);
    expect(Buffer.concat(toApp).equals(gatewayBytes)).toBe(true);
    app.destroy();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
