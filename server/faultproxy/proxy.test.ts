// The fault proxy in front of the real reference gateway: bytes pass unchanged, latency is added,
// a cut lands strictly inside a frame, a link that is down refuses WebSockets but not HTTP.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../gateway/testclient';
import { useGateway } from '../gateway/testing';
import { WsFrameTracker } from './frames';
import { FaultProxy } from './proxy';

const TOKEN = 'fault-proxy-token';
const fixture = useGateway({ token: TOKEN, streamDelayMs: 5 });
let proxy: FaultProxy;

beforeEach(async () => {
  proxy = await FaultProxy.start({ target: () => ({ host: '127.0.0.1', port: fixture.gw.port }) });
});

afterEach(async () => {
  await proxy.close();
});

/** A WebSocket client on a raw socket, so the test sees every byte, including a partial frame. */
async function rawClient(
  port: number,
): Promise<{ socket: Socket; bytes: () => Buffer; closed: Promise<void>; sendText(text: string): void }> {
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const sendText = (text: string) => {
    const payload = Buffer.from(text);
    const mask = randomBytes(4);
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]);
    const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
    socket.write(Buffer.concat([head, mask, masked]));
  };
  return { socket, bytes: () => Buffer.concat(chunks), closed, sendText };
}

function httpStatus(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('fault proxy', () => {
  it('passes WebSocket frames and plain HTTP unchanged', async () => {
    const client = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    const { echo, stop } = await client.chat('through the proxy');
    expect(echo.payload.text).toBe('through the proxy');
    expect(stop?.payload.final_text).toContain('**Echo:** through the proxy');
    expect(await httpStatus(proxy.port)).toBe(426); // the standalone gateway's answer to plain HTTP
    await client.close();
  });

  it('adds latency to every frame without reordering', async () => {
    const client = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    proxy.setDelay(150);
    const started = Date.now();
    const pongs = await Promise.all([1, 2, 3].map((ts) => client.request('ping', { ts })));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290); // there and back
    expect(pongs.map((p) => p.payload.ts)).toEqual([1, 2, 3]);
    await client.close();
  });

  it('cuts a link strictly inside a frame going to the app', async () => {
    const raw = await rawClient(proxy.port);
    raw.sendText(JSON.stringify({ v: 1, id: 1, type: 'hello', payload: { token: TOKEN, device_id: 'raw-1' } }));
    await expect.poll(() => raw.bytes().includes('hello.ack')).toBe(true);
    const cut = proxy.cutMidFrame({ direction: 'toApp', withinMs: 5000 });
    raw.sendText(
      JSON.stringify({
        v: 1,
        id: 2,
        type: 'message.send',
        chat_id: 'web:default',
        payload: { text: 'cut me', client_id: 'c-cut' },
      }),
    );
    expect(await cut).toBe(1);
    await raw.closed;
    const tracker = new WsFrameTracker({ skipHttpHead: true });
    tracker.observe(raw.bytes());
    expect(tracker.atBoundary).toBe(false);
    expect(proxy.stats().cutsMidFrame).toBe(1);
    // The gateway stored the message the app sent before the cut.
    await expect.poll(() => fixture.gw.gateway.store.messages('web:default').map((m) => m.text)).toContain('cut me');
  });

  it('cuts a link inside a frame going to the gateway, which drops the torn frame', async () => {
    const client = await TestClient.paired(proxy.wsUrl, { token: TOKEN, device_id: 'torn' });
    const cut = proxy.cutMidFrame({ direction: 'toGateway', withinMs: 5000 });
    client.send('message.send', { text: 'x'.repeat(5000), client_id: 'c-torn' }, { id: 9, chat_id: 'web:default' });
    expect(await cut).toBe(1);
    await client.closed;
    await expect.poll(() => fixture.gw.gateway.connectionCount()).toBe(0);
    expect(fixture.gw.gateway.store.messages('web:default')).toEqual([]);
  });

  it('cuts the next link inside a frame once part of an upload has passed', async () => {
    const cut = proxy.cutMidFrame({ direction: 'toGateway', scope: 'next', afterBytes: 300_000, withinMs: 5000 });
    const client = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    const start = client.request('media.upload.start', {
      media_ref: 'ref-cut',
      kind: 'document',
      mime: 'application/octet-stream',
      size: 4 * 262_144,
      filename: 'x.bin',
    });
    start.catch(() => {});
    for (let i = 0; i < 4; i++) client.sendRaw(Buffer.alloc(262_144, i), true);
    expect(await cut).toBe(1);
    await client.closed;
    await expect.poll(() => fixture.gw.gateway.connectionCount()).toBe(0);
    expect(fixture.gw.gateway.store.media.list()).toEqual([]);
    expect(proxy.stats().cutsMidFrame).toBe(1);
  });

  it('while down, refuses WebSockets (HTTP still passes) and lets them in again afterwards', async () => {
    const client = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    proxy.down(400);
    await client.closed;
    await expect(TestClient.connect(proxy.wsUrl)).rejects.toThrow();
    expect(await httpStatus(proxy.port)).toBe(426);
    // Down for 400 ms: a socket tried after that is let in again.
    let again: TestClient | undefined;
    await expect
      .poll(async () => (again = await TestClient.paired(proxy.wsUrl, { token: TOKEN }).catch(() => undefined)), {
        interval: 100,
        timeout: 5000,
      })
      .toBeDefined();
    if (!again) throw new Error('unreachable: the poll above saw a client');
    expect((await again.request('ping', { ts: 5 })).type).toBe('pong');
    expect(proxy.stats().refused).toBeGreaterThanOrEqual(1);
    await again.close();
  });

  it('follows a backend that restarts on the same port', async () => {
    const port = fixture.gw.port;
    const first = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    await fixture.stop();
    await first.closed;
    await fixture.restart({ port });
    const second = await TestClient.paired(proxy.wsUrl, { token: TOKEN });
    expect((await second.request('ping', { ts: 1 })).type).toBe('pong');
    await second.close();
  });
});
