// The serving process against a stranger on the network (issue 13, points 6–8): who may open /ws,
// how much a socket may do before hello, what guessing the token costs, slow requests, and the
// data directory's permissions.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../src/protocol';
import { startServer, type RunningServer, type ServerOptions } from './server';
import { closed, helloFrame, makeFakeDist, nextFrameOfType, openSocket } from './testing/fixtures';

const TOKEN = 'hardening-token-0123456789';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Partial<ServerOptions> = {}): Promise<RunningServer> {
  const dist = makeFakeDist();
  cleanups.push(() => dist.cleanup());
  const server = await startServer({ distDir: dist.distDir, host: '127.0.0.1', port: 0, token: TOKEN, ...options });
  cleanups.push(() => server.close());
  return server;
}

/** The status an upgrade gets (101 when accepted), with these client options. */
function upgrade(url: string, options: WebSocket.ClientOptions = {}): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('unexpected-response', (req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      req.destroy();
    });
    ws.once('open', () => {
      cleanups.push(() => ws.terminate());
      resolve({ status: 101, ws });
    });
    ws.on('error', (error) => reject(error));
  });
}

describe('/ws: who may open it', () => {
  it("a page on another origin is refused (403); the server's own host, a configured origin and non-browser clients are not", async () => {
    const server = await start({ allowedOrigins: ['https://iris.example.org'] });
    const own = `http://127.0.0.1:${server.port}`;
    expect((await upgrade(server.wsUrl, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await upgrade(server.wsUrl, { origin: 'null' })).status).toBe(403);
    expect((await upgrade(server.wsUrl, { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
    expect((await upgrade(server.wsUrl, { origin: `https://127.0.0.1.evil.example` })).status).toBe(403);
    expect((await upgrade(server.wsUrl, { origin: own })).status).toBe(101);
    expect((await upgrade(server.wsUrl, { origin: 'https://iris.example.org' })).status).toBe(101);
    expect((await upgrade(server.wsUrl)).status).toBe(101);
  });

  it('caps open sockets per address (429 beyond it); another address, or a closed socket, makes room', async () => {
    const server = await start({ maxConnectionsPerIp: 3 });
    const open = [];
    for (let i = 0; i < 3; i++) open.push((await upgrade(server.wsUrl)).ws!);
    expect((await upgrade(server.wsUrl)).status).toBe(429);
    expect((await upgrade(server.wsUrl, { localAddress: '127.0.0.2' })).status).toBe(101);
    const first = open[0]!;
    first.close();
    await closed(first);
    await expect.poll(async () => (await upgrade(server.wsUrl)).status).toBe(101);
  });

  it('the default cap leaves room for many tabs and devices on one machine', async () => {
    const server = await start();
    const sockets = [];
    for (let i = 0; i < 40; i++) sockets.push((await upgrade(server.wsUrl)).status);
    expect(sockets.every((s) => s === 101)).toBe(true);
  });
});

describe('/ws before hello', () => {
  it('closes the socket on its first invalid frame, and on a binary frame', async () => {
    const server = await start();
    for (const junk of ['not json', '{"v":1}', JSON.stringify({ v: 1, type: 'hello', payload: 'x' }).slice(0, -1)]) {
      const { ws } = await openSocket(server.wsUrl);
      const end = closed(ws);
      ws.send(junk);
      expect((await end).code, junk).toBe(1008);
    }
    const { ws } = await openSocket(server.wsUrl);
    const end = closed(ws);
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await end).code).toBe(1008);
  });

  it('allows only small frames before hello (1009), the usual limits after it', async () => {
    const server = await start();
    const big = encodeFrame({ type: 'ping', id: 2, payload: { ts: 1, pad: 'x'.repeat(64 * 1024) } as never });
    const { ws } = await openSocket(server.wsUrl);
    const end = closed(ws);
    ws.send(big);
    expect((await end).code).toBe(1009);

    const { ws: paired } = await openSocket(server.wsUrl);
    const ack = nextFrameOfType(paired, ['hello.ack']);
    paired.send(helloFrame(TOKEN));
    await ack;
    const pong = nextFrameOfType(paired, ['pong']);
    paired.send(big);
    expect((await pong).id).toBe(2);
    paired.close();
  });

  it('after a few failed hellos an address waits, doubling, before a hello is even checked', async () => {
    const server = await start({ gateway: { helloBackoff: { free: 2, baseMs: 3_000 } } });
    const hello = async (token: string, from = '127.0.0.1') => {
      const { ws } = await openSocket(server.wsUrl, { localAddress: from });
      const answer = nextFrameOfType(ws, ['hello.ack', 'error']);
      ws.send(helloFrame(token));
      const frame = await answer;
      ws.close();
      return frame.type === 'hello.ack' ? 'ok' : String(frame.payload.code);
    };
    expect(await hello('wrong-token-000000000')).toBe('auth');
    expect(await hello('wrong-token-000000000')).toBe('auth');
    expect(await hello('wrong-token-000000000')).toBe('auth');
    // Now even the right token waits; another address does not.
    expect(await hello(TOKEN)).toBe('rate_limited');
    expect(await hello(TOKEN, '127.0.0.3')).toBe('ok');
    await expect.poll(() => hello(TOKEN), { timeout: 15_000, interval: 200 }).toBe('ok');
  });
});

describe('HTTP', () => {
  it('has explicit deadlines for headers and requests', async () => {
    const server = await start();
    expect(server.server.headersTimeout).toBe(15_000);
    expect(server.server.requestTimeout).toBe(30_000);
  });

  it('a client that never finishes its headers is cut off', async () => {
    const server = await start({ httpTimeouts: { headersMs: 300, requestMs: 300 } });
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '),
      );
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('the data directory', () => {
  it('is private (folders 0700, files 0600), including what existed before and what is written later', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'iris-perms-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    chmodSync(dataDir, 0o755);
    mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'demo-token'), 'x'.repeat(20), { mode: 0o644 });
    writeFileSync(join(dataDir, 'outbox', 'old.log'), '', { mode: 0o666 });
    chmodSync(join(dataDir, 'outbox', 'old.log'), 0o666);
    const server = await start({ dataDir });

    const { ws } = await openSocket(server.wsUrl);
    const ack = nextFrameOfType(ws, ['hello.ack']);
    ws.send(helloFrame(TOKEN, 'perm-device'));
    await ack;
    const echo = nextFrameOfType(ws, ['message']);
    ws.send(
      encodeFrame({ type: 'message.send', id: 2, chat_id: 'web:default', payload: { text: 'hello', client_id: 'c1' } }),
    );
    await echo;
    ws.close();
    await server.close();

    const modes: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const stat = statSync(path);
        modes.push(`${path.slice(dataDir.length)} ${(stat.mode & 0o777).toString(8)}`);
        if (stat.isDirectory()) walk(path);
      }
    };
    walk(dataDir);
    expect(modes.length).toBeGreaterThan(4);
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    for (const line of modes) {
      const [path, mode] = line.split(' ');
      expect(mode, path).toBe(statSync(join(dataDir, path!)).isDirectory() ? '700' : '600');
    }
  });
});
