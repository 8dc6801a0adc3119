import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/protocol';
import { startServer, type RunningServer } from './server';
import {
  closed,
  hasOpenssl,
  helloFrame,
  makeFakeDist,
  makeSelfSignedCert,
  nextFrameOfType,
  openSocket,
  rawRequest,
  upgradeStatus,
  type FakeDist,
} from './testing/fixtures';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  options: Partial<Parameters<typeof startServer>[0]> = {},
): Promise<{ server: RunningServer; dist: FakeDist }> {
  const dist = makeFakeDist();
  cleanups.push(() => dist.cleanup());
  const server = await startServer({ distDir: dist.distDir, host: '127.0.0.1', port: 0, ...options });
  cleanups.push(() => server.close());
  return { server, dist };
}

describe('startServer', () => {
  it('reports where it listens', async () => {
    const { server } = await start({ token: 'demo-token-1234567890' });
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.wsUrl).toBe(`ws://127.0.0.1:${server.port}/ws`);
    expect(server.gateway).toBeDefined();
    expect((await rawRequest(server.port, '/')).status).toBe(200);
  });

  it('refuses to start without a built app', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'iris-empty-'));
    cleanups.push(() => rmSync(empty, { recursive: true, force: true }));
    await expect(startServer({ distDir: empty })).rejects.toThrow(/not built: no index.html/);
  });

  it('runs extra routes before the static files, in order, and falls through when they decline', async () => {
    const seen: string[] = [];
    const { server } = await start({
      routes: [
        (req) => {
          seen.push(`first ${req.url}`);
          return false;
        },
        async (req, res) => {
          if (!req.url?.startsWith('/push/')) return false;
          res.writeHead(201, { 'Content-Type': 'application/json' }).end('{"ok":true}');
          return true;
        },
      ],
    });
    const push = await rawRequest(server.port, '/push/vapid-public-key');
    expect(push.status).toBe(201);
    expect(push.body).toBe('{"ok":true}');
    const app = await rawRequest(server.port, '/');
    expect(app.status).toBe(200);
    expect(seen).toEqual(['first /push/vapid-public-key', 'first /']);
  });

  it('answers 500 when a route throws, and logs no URL', async () => {
    const logged: string[] = [];
    const { server } = await start({
      log: (line) => logged.push(line),
      routes: [
        () => {
          throw new Error('boom');
        },
      ],
    });
    const res = await rawRequest(server.port, '/push/ntfy/secret-topic?token=abc');
    expect(res.status).toBe(500);
    expect(res.body).toBe('Internal server error');
    expect(logged).toEqual(['iris: a request failed: boom']);
    expect(logged.join('\n')).not.toMatch(/secret-topic|token=abc/);
  });
});

describe('/ws hosts the demo gateway', () => {
  const token = 'demo-token-abcdefghijklmnop';

  it('pairs a real WebSocket client with the token: hello → hello.ack', async () => {
    const { server } = await start({ token, gateway: { streamDelayMs: 0 } });
    const { ws } = await openSocket(server.wsUrl);
    const ack = nextFrameOfType(ws, ['hello.ack', 'error']);
    ws.send(helloFrame(token));
    const frame = await ack;
    expect(frame.type).toBe('hello.ack');
    expect(frame.id).toBe(1);
    expect(server.gateway!.connectionCount()).toBe(1);
    ws.close();
    await closed(ws);
  });

  it('rejects a wrong token with error auth and closes', async () => {
    const { server } = await start({ token });
    const { ws } = await openSocket(server.wsUrl);
    const answer = nextFrameOfType(ws, ['hello.ack', 'error']);
    const close = closed(ws);
    ws.send(helloFrame('not-the-token'));
    const frame = await answer;
    expect(frame.type).toBe('error');
    expect(frame.payload.code).toBe('auth');
    await close;
  });

  it('keeps the demo state in the data directory across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'iris-data-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await start({ token, dataDir });
    const a = await openSocket(first.server.wsUrl);
    const ackA = nextFrameOfType(a.ws, ['hello.ack']);
    a.ws.send(helloFrame(token, 'device-a'));
    await ackA;
    const created = nextFrameOfType(a.ws, ['channel.created']);
    a.ws.send(
      encodeFrame({ type: 'channel.create', id: 2, payload: { name: 'kept-across-restarts', kind: 'channel' } }),
    );
    await created;
    a.ws.close();
    await closed(a.ws);
    await first.server.close();

    const second = await start({ token, dataDir });
    const b = await openSocket(second.server.wsUrl);
    const ackB = nextFrameOfType(b.ws, ['hello.ack']);
    b.ws.send(helloFrame(token, 'device-a'));
    const channels = (await ackB).payload.channels as { name: string }[];
    expect(channels.map((c) => c.name)).toContain('kept-across-restarts');
    b.ws.close();
    await closed(b.ws);
  });

  it('refuses WebSocket upgrades on any other path', async () => {
    const { server } = await start({ token });
    expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/not-ws`)).toBe(404);
    expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/ws/more`)).toBe(404);
    expect(await upgradeStatus(server.wsUrl)).toBe(101);
  });

  it('has no WebSocket endpoint when neither a token nor an upstream is given', async () => {
    const { server } = await start();
    expect(await upgradeStatus(server.wsUrl)).toBe(404);
  });

  it('close() ends live WebSockets and stops listening', async () => {
    const { server } = await start({ token });
    const { ws } = await openSocket(server.wsUrl);
    const ack = nextFrameOfType(ws, ['hello.ack']);
    ws.send(helloFrame(token));
    await ack;
    const close = closed(ws);
    await server.close();
    await close;
    await expect(rawRequest(server.port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('TLS', () => {
  it('serves HTTPS and WSS with a certificate and key', async (ctx) => {
    if (!hasOpenssl()) ctx.skip('openssl is not installed, so no test certificate can be made');
    const certDir = mkdtempSync(join(tmpdir(), 'iris-cert-'));
    cleanups.push(() => rmSync(certDir, { recursive: true, force: true }));
    const { cert, key } = makeSelfSignedCert(certDir);
    const token = 'tls-token-abcdefghijklmnop';
    const { server } = await start({ token, tls: { cert, key } });
    expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
    expect(server.wsUrl).toBe(`wss://127.0.0.1:${server.port}/ws`);

    const res = await new Promise<{ status: number; csp: string; hsts: unknown; body: string }>((resolve, reject) => {
      httpsGet({ host: '127.0.0.1', port: server.port, path: '/', ca: cert, servername: 'localhost' }, (r) => {
        let body = '';
        r.on('data', (d) => (body += d));
        r.on('end', () =>
          resolve({
            status: r.statusCode ?? 0,
            csp: String(r.headers['content-security-policy']),
            hsts: r.headers['strict-transport-security'],
            body,
          }),
        );
      }).on('error', reject);
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
    expect(res.csp).toContain(`connect-src 'self' wss://127.0.0.1:${server.port};`);
    expect(res.hsts).toBe('max-age=31536000');

    const { ws } = await openSocket(server.wsUrl, { ca: cert });
    const ack = nextFrameOfType(ws, ['hello.ack']);
    ws.send(helloFrame(token));
    expect((await ack).type).toBe('hello.ack');
    ws.close();
    await closed(ws);

    // An untrusting client is refused: the certificate is really in use.
    await expect(openSocket(server.wsUrl)).rejects.toThrow(/self[- ]signed/);
  });
});
