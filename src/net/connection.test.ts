// The connection's own rules, against a scripted WebSocket server and a hand-moved clock:
// pairing order, request ids and answers, timeouts, heartbeat, backoff, auth refusal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { backoffDelay } from './backoff';
import { GatewayConnection, type ConnectionOptions, type WebSocketConstructor } from './connection';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from './errors';
import type { Phase } from './phases';
import { ScriptedServer } from '../testing/scriptedServer';
import { until } from '../testing/until';
import { VirtualTimers } from '../testing/virtualTimers';

const WS = WebSocket as unknown as WebSocketConstructor;
let server: ScriptedServer;
let timers: VirtualTimers;
let conn: GatewayConnection | undefined;

beforeEach(async () => {
  server = await ScriptedServer.start();
  timers = new VirtualTimers();
});

afterEach(async () => {
  conn?.stop();
  conn = undefined;
  await server.close();
});

function connect(extra: Partial<ConnectionOptions> = {}): GatewayConnection {
  conn = new GatewayConnection({
    url: server.url,
    token: 'secret-token',
    deviceId: 'device-1',
    deviceName: 'Chrome on Android',
    WebSocketImpl: WS,
    timers,
    random: () => 0.5,
    wakeSource: () => () => {},
    ...extra,
  });
  conn.start();
  return conn;
}

describe('the lifecycle', () => {
  it('a connection walks the phases: connecting, hello sent, live, backing off, and closed on stop', async () => {
    server.acceptHello();
    const seen: Phase[] = [];
    // `conn` is set before start(), so the handler sees it from the first transition.
    const c = connect({ handlers: { state: () => void seen.push(conn!.phase) } });
    await until(() => c.phase === 'live', 'live');
    server.last!.ws.terminate();
    await until(() => c.phase === 'backing-off', 'backing off');
    c.stop();
    expect(c.phase).toBe('closed');
    expect(seen).toEqual(['connecting', 'hello-sent', 'live', 'backing-off']);
    expect(timers.pending()).toEqual([]);
  });

  it('one-shot: a dropped socket closes it, with no reconnect scheduled', async () => {
    server.acceptHello();
    const c = connect({ reconnects: false });
    await until(() => c.phase === 'live', 'live');
    server.last!.ws.terminate();
    await until(() => c.phase === 'closed', 'closed');
    expect(c.state()).toBe('offline');
    expect(timers.pending()).toEqual([]);
    c.wake();
    expect(c.phase).toBe('closed');
  });
});

describe('pairing', () => {
  it('sends hello first with token, device and caps, and nothing else before hello.ack', async () => {
    const c = connect();
    await until(() => server.last?.frames.length === 1, 'hello');
    expect(c.state()).toBe('pairing');
    const hello = server.last!.frames[0]!;
    expect(hello).toMatchObject({
      type: 'hello',
      payload: {
        token: 'secret-token',
        device_id: 'device-1',
        device_name: 'Chrome on Android',
        caps: { min_protocol: 1, media: true, push: 'none' },
      },
    });
    // A request before hello.ack fails at once and sends nothing.
    await expect(c.request({ v: 1, type: 'search', payload: { query: 'x', scope: 'all' } })).rejects.toBeInstanceOf(
      ConnectionLostError,
    );
    // Events before hello.ack are not acted on.
    server.last!.send({ type: 'message', payload: { message_id: 'm', role: 'assistant', text: 'early' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.last!.frames).toHaveLength(1);
    server.last!.send({ type: 'hello.ack', payload: { server_caps: {}, sync_cursor: 0, channels: [] } });
    await until(() => c.state() === 'online', 'online');
  });

  it('stops for good after an auth error: state auth-failed and no reconnect', async () => {
    server.onFrame((s, f) => {
      if (f.type === 'hello') {
        s.send({ type: 'error', payload: { code: 'auth', message: 'The token was not accepted.' } });
        s.ws.close(1008, 'auth');
      }
    });
    const c = connect();
    await until(() => c.state() === 'auth-failed', 'auth-failed');
    expect(c.lastError()).toBe('The token was not accepted.');
    expect(timers.pending()).toEqual([]); // no reconnect scheduled
    timers.advance(120_000);
    c.wake(); // coming back online or visible does not retry either
    await new Promise((r) => setTimeout(r, 100));
    expect(server.sockets).toHaveLength(1);
    expect(c.state()).toBe('auth-failed');
  });

  it('a close at hello with 1008 (policy violation) and no error frame is a refusal too; other closes are retried', async () => {
    let code = 1008;
    server.onFrame((s, f) => {
      if (f.type === 'hello') s.ws.close(code, code === 1008 ? 'invalid token' : 'restarting');
    });
    const c = connect();
    await until(() => c.state() === 'auth-failed', 'auth-failed');
    expect(c.lastError()).toBe('invalid token');
    expect(timers.pending()).toEqual([]);
    c.stop();
    code = 1012; // service restart: the gateway will be back, the token may be fine
    const again = connect();
    await until(() => again.state() === 'offline', 'offline');
    expect(timers.pending().length).toBeGreaterThan(0);
  });

  it('a live connection closed with 1008 is lost and retried, not taken for a refused token', async () => {
    server.onFrame((s, f) => {
      if (f.type === 'hello') s.send({ type: 'hello.ack', payload: { server_caps: {}, sync_cursor: 0, channels: [] } });
    });
    const c = connect();
    await until(() => c.state() === 'online', 'online');
    server.last!.ws.close(1008, 'too many frames');
    await until(() => c.state() === 'offline', 'offline');
    expect(timers.pending().length).toBeGreaterThan(0);
  });

  it('a replay batch (asked for in hello) hands over its frames in order once live, and nothing before', async () => {
    const seen: string[] = [];
    server.onFrame((s, f) => {
      if (f.type !== 'hello') return;
      // Before hello.ack a batch means nothing, as any other frame.
      s.send({ type: 'frames', payload: { frames: [{ v: 1, type: 'typing', chat_id: 'early', payload: {} }] } });
      s.send({ type: 'hello.ack', payload: { server_caps: {}, sync_cursor: 0, channels: [] } });
    });
    const c = connect({ handlers: { frame: (f) => void seen.push(`${f.type} ${f.chat_id ?? ''}`) } });
    await until(() => c.state() === 'online', 'online');
    expect(server.last!.frames[0]!.payload).toMatchObject({ caps: { batches: true } });
    const frame = (chat_id: string) => ({ v: 1, type: 'typing', chat_id, payload: { on: true } });
    server.last!.send({ type: 'frames', payload: { frames: [frame('a'), 'junk', frame('b'), frame('c')] } });
    server.last!.send(frame('d') as object);
    await until(() => seen.length === 4, 'four frames');
    expect(seen).toEqual(['typing a', 'typing b', 'typing c', 'typing d']);
  });
});

describe('requests', () => {
  beforeEach(() => server.acceptHello());

  it('numbers requests 1, 2, 3 and settles each by the answer with its id', async () => {
    const c = connect();
    await until(() => c.state() === 'online', 'online');
    const a = c.request({ v: 1, type: 'search', payload: { query: 'a', scope: 'all' } });
    const b = c.request({ v: 1, type: 'search', payload: { query: 'b', scope: 'all' } });
    const d = c.request({ v: 1, type: 'commands.complete', payload: { prefix: '/h' } });
    await until(() => server.last!.frames.length === 4, 'three requests');
    expect(server.last!.frames.slice(1).map((f) => f.id)).toEqual([1, 2, 3]);
    const s = server.last!;
    // Answers out of order; an error answers the third.
    s.send({ type: 'search.results', id: 2, payload: { query: 'b', scope: 'all', hits: [] } });
    s.send({ type: 'error', id: 3, payload: { code: 'unsupported', message: 'no completion here' } });
    s.send({ type: 'search.results', id: 1, payload: { query: 'a', scope: 'all', hits: [] } });
    expect((await a).payload).toMatchObject({ query: 'a' });
    expect((await b).payload).toMatchObject({ query: 'b' });
    const err = await d.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('unsupported');
    // What a person reads is the gateway's own words; the code's sentence only stands in for none.
    expect((err as ProtocolError).message).toBe('no completion here');
  });

  it('an answer of the wrong type or with a stale id does not settle a request', async () => {
    const seen: string[] = [];
    const c = connect({ handlers: { frame: (f) => void seen.push(f.type) } });
    await until(() => c.state() === 'online', 'online');
    const page = c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } });
    await until(() => server.last!.frames.length === 2, 'request');
    // A replayed frame from an older connection that happens to carry id 1.
    server.last!.send({
      type: 'message',
      id: 1,
      chat_id: 'x',
      payload: { message_id: 'old', role: 'user', text: 'hi' },
    });
    server.last!.send({ type: 'history', id: 1, chat_id: 'x', payload: { messages: [], has_more: false } });
    const answer = await page;
    expect(answer.type).toBe('history');
    expect(seen).toEqual(['message', 'history']);
  });

  it('an error without an id answers the one request waiting when nothing was sent after it (protocol.py leaves the id out)', async () => {
    const toasts: string[] = [];
    const c = connect({ handlers: { frame: (f) => void toasts.push(f.type) } });
    await until(() => c.state() === 'online', 'online');
    const send = c.request({ v: 1, type: 'message.send', chat_id: 'x', payload: { text: 'hi', client_id: 'c1' } });
    await until(() => server.last!.frames.length === 2, 'sent');
    server.last!.send({ type: 'error', payload: { code: 'not_found', message: 'No such chat.' } });
    const err = await send.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).message).toBe('No such chat.');
    expect(toasts).toEqual([]); // the request's own failure says it, not a second notice

    // An upload's end continues its request: the error after it is still that request's.
    const upload = c.request({
      v: 1,
      type: 'media.upload.start',
      payload: { media_ref: 'r1', kind: 'document', mime: 'text/plain', size: 3, filename: 'a.txt' },
    });
    await until(() => server.last!.frames.length === 3, 'upload started');
    c.notify({ v: 1, type: 'media.upload.end', payload: { media_ref: 'r1', sha256: '00' } }, 2);
    await until(() => server.last!.frames.length === 4, 'upload ended');
    server.last!.send({ type: 'error', payload: { code: 'media_too_large', message: 'Too big.' } });
    expect(((await upload.catch((e: unknown) => e)) as ProtocolError).code).toBe('media_too_large');
  });

  it("an error without an id that settles the app's own refresh is shown too: nobody shows that request's failure", async () => {
    const shown: string[] = [];
    const c = connect({
      handlers: { frame: (f) => void shown.push(`${f.type}: ${String((f.payload as { message?: unknown }).message)}`) },
    });
    await until(() => c.state() === 'online', 'online');
    const page = c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } }, { unseen: true });
    await until(() => server.last!.frames.length === 2, 'sent');
    server.last!.send({ type: 'error', payload: { code: 'internal', message: 'The disk is full.' } });
    expect(((await page.catch((e: unknown) => e)) as ProtocolError).code).toBe('internal');
    expect(shown).toEqual(['error: The disk is full.']);
    // With its id it is that request's own answer: not shown.
    const again = c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } }, { unseen: true });
    await until(() => server.last!.frames.length === 3, 'sent again');
    server.last!.send({ type: 'error', id: 2, payload: { code: 'not_found', message: 'No such chat.' } });
    expect(((await again.catch((e: unknown) => e)) as ProtocolError).code).toBe('not_found');
    expect(shown).toEqual(['error: The disk is full.']);
    // `unsupported` answers a request type the gateway lacks (protocol.py has no catalog): not news.
    const catalog = c.request({ v: 1, type: 'commands.catalog', payload: {} }, { unseen: true });
    await until(() => server.last!.frames.length === 4, 'catalog asked');
    server.last!.send({ type: 'error', payload: { code: 'unsupported', message: 'Unknown frame type.' } });
    expect(((await catalog.catch((e: unknown) => e)) as ProtocolError).code).toBe('unsupported');
    // One that names the type it refuses answers the request of that type at once, two waiting or more.
    const stop = c.request({ v: 1, type: 'agent.stop', chat_id: 'x', payload: {} });
    const page3 = c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } }, { unseen: true });
    const search = c.request({ v: 1, type: 'search', payload: { query: 'stop', scope: 'all' } });
    await until(() => server.last!.frames.length === 7, 'three asked');
    server.last!.send({ type: 'error', payload: { code: 'unsupported', message: 'Unknown frame type "agent.stop".' } });
    const refused = (await stop.catch((e: unknown) => e)) as ProtocolError;
    expect(refused.code).toBe('unsupported');
    expect(refused.detail).toBe('Unknown frame type "agent.stop".');
    server.last!.send({ type: 'search.results', payload: { query: 'stop', scope: 'all', hits: [] } });
    server.last!.send({ type: 'history', id: 5, chat_id: 'x', payload: { messages: [], has_more: false } });
    expect((await search).type).toBe('search.results');
    expect((await page3).type).toBe('history');
    // The answers go to the store as ever; the refusal does not.
    expect(shown).toEqual(['error: The disk is full.', 'search.results: undefined', 'history: undefined']);
    // Nor with two waiting, where it cannot tell whose it is (the catalog's ends with its timeout).
    const next = c.request({ v: 1, type: 'commands.catalog', payload: {} }, { unseen: true });
    const page2 = c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } }, { unseen: true });
    await until(() => server.last!.frames.length === 9, 'two asked');
    server.last!.send({ type: 'error', payload: { code: 'unsupported', message: 'Unknown frame type.' } });
    server.last!.send({ type: 'history', id: 8, chat_id: 'x', payload: { messages: [], has_more: false } });
    expect((await page2).type).toBe('history');
    timers.advance(15_000);
    expect(await next.catch((e: unknown) => e)).toBeInstanceOf(RequestTimeoutError);
    expect(shown, 'the answers are stored; the errors are not').toEqual([
      'error: The disk is full.',
      'search.results: undefined',
      'history: undefined',
      'history: undefined',
    ]);
  });

  it('an error without an id settles nothing when it could answer another frame: two waiting, a frame sent since, another lane', async () => {
    const shown: string[] = [];
    const c = connect({ requestTimeoutMs: 1000, handlers: { frame: (f) => void shown.push(f.type) } });
    await until(() => c.state() === 'online', 'online');
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: unknown) => (e instanceof RequestTimeoutError ? 'timed out' : 'refused'),
      );
    const error = { type: 'error', payload: { code: 'internal', message: 'no' } } as const;
    // Two waiting.
    const a = outcome(c.request({ v: 1, type: 'search', payload: { query: 'a', scope: 'all' } }));
    const b = outcome(c.request({ v: 1, type: 'search', payload: { query: 'b', scope: 'all' } }));
    await until(() => server.last!.frames.length === 3, 'two requests');
    server.last!.send(error);
    await until(() => shown.length === 1, 'shown');
    timers.advance(1000);
    expect([await a, await b]).toEqual(['timed out', 'timed out']);
    // A read receipt sent after the request: the error may be the receipt's.
    const d = outcome(c.request({ v: 1, type: 'search', payload: { query: 'd', scope: 'all' } }));
    c.notify({ v: 1, type: 'read.receipt', chat_id: 'x', payload: { chat_id: 'x', message_id: 'm' } });
    await until(() => server.last!.frames.length === 5, 'request and receipt');
    server.last!.send(error);
    await until(() => shown.length === 2, 'shown');
    timers.advance(1000);
    expect(await d).toBe('timed out');
    // An error naming another lane.
    const e = outcome(c.request({ v: 1, type: 'history', chat_id: 'x', payload: { limit: 5 } }));
    await until(() => server.last!.frames.length === 6, 'history');
    server.last!.send({ ...error, chat_id: 'y' });
    await until(() => shown.length === 3, 'shown');
    timers.advance(1000);
    expect(await e).toBe('timed out');
  });

  it('a request that is never answered fails after its timeout', async () => {
    const c = connect({ requestTimeoutMs: 2000 });
    await until(() => c.state() === 'online', 'online');
    const p = c.request({ v: 1, type: 'search', payload: { query: 'never', scope: 'all' } });
    const settled = p.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await until(() => server.last!.frames.length === 2, 'request sent');
    timers.advance(1999);
    await new Promise((r) => setTimeout(r, 20));
    expect(await Promise.race([settled, Promise.resolve('pending')])).toBe('pending');
    timers.advance(1);
    const err = await settled;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(c.state()).toBe('online'); // a slow answer is not a dead connection
  });

  it('pending requests fail when the connection drops, and it reconnects', async () => {
    const c = connect();
    await until(() => c.state() === 'online', 'online');
    const p = c.request({ v: 1, type: 'search', payload: { query: 'x', scope: 'all' } });
    await until(() => server.last!.frames.length === 2, 'request sent');
    server.last!.ws.terminate();
    await expect(p).rejects.toBeInstanceOf(ConnectionLostError);
    await until(() => c.state() === 'offline', 'offline');
    // random 0.5 → half of the first ceiling (500 ms)
    expect(timers.pending()).toEqual([250]);
    timers.advance(250);
    await until(() => c.state() === 'online', 'online again');
    expect(server.sockets).toHaveLength(2);
    // ids start again at 1 on the new connection
    void c.request({ v: 1, type: 'search', payload: { query: 'y', scope: 'all' } }).catch(() => {});
    await until(() => server.last!.frames.length === 2, 'request on new socket');
    expect(server.last!.frames[1]!.id).toBe(1);
  });

  it("a gateway's refusal of a read receipt reaches no one; a refused stop still does", async () => {
    const seen: string[] = [];
    const c = connect({
      handlers: {
        frame: (f) => void seen.push(`${f.type} ${String((f.payload as { message?: string }).message ?? '')}`),
      },
    });
    await until(() => c.state() === 'online', 'online');
    c.notify({ v: 1, type: 'read.receipt', chat_id: 'x', payload: { chat_id: 'x', message_id: 'gone' } });
    c.notify({ v: 1, type: 'agent.stop', chat_id: 'x', payload: {} });
    await until(() => server.last!.frames.length === 3, 'both sent');
    const [receipt, stop] = server.last!.frames.slice(1);
    const s = server.last!;
    s.send({ type: 'error', id: receipt!.id, payload: { code: 'not_found', message: 'No such message.' } });
    s.send({ type: 'error', id: stop!.id, payload: { code: 'not_found', message: 'No turn is in progress.' } });
    s.send({ type: 'typing', chat_id: 'x', payload: { on: true } });
    await until(() => seen.some((t) => t.startsWith('typing')), 'the frame sent last');
    expect(seen).toEqual(['error No turn is in progress.', 'typing ']);
  });

  it('malformed and unknown frames are ignored', async () => {
    const seen: string[] = [];
    const c = connect({ handlers: { frame: (f) => void seen.push(f.type) } });
    await until(() => c.state() === 'online', 'online');
    const s = server.last!;
    for (const junk of [
      'not json',
      '[1,2]',
      '{"v":1}',
      '{"type":""}',
      '{"type":"from.the.future","payload":{}}',
      'null',
    ])
      s.send(junk);
    s.send({ type: 'typing', chat_id: 'x', payload: { on: true } });
    await until(() => seen.length === 1, 'the valid frame');
    expect(seen).toEqual(['typing']);
    expect(c.state()).toBe('online');
  });
});

describe('heartbeat and reconnection', () => {
  beforeEach(() => server.acceptHello());

  it('pings every 25 s; a frame answers it; 10 s of silence after a ping means dead', async () => {
    server.onFrame((s, f) => {
      if (f.type === 'ping' && s === server.sockets[0] && s.frames.filter((x) => x.type === 'ping').length === 1) {
        s.send({ type: 'pong', payload: { ts: f.payload.ts } });
      }
    });
    const c = connect();
    await until(() => c.state() === 'online', 'online');
    timers.advance(24_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.last!.frames.filter((f) => f.type === 'ping')).toHaveLength(0);
    timers.advance(1);
    await until(() => server.last!.frames.some((f) => f.type === 'ping'), 'first ping');
    expect(server.last!.frames.find((f) => f.type === 'ping')!.payload).toEqual({ ts: timers.now() });
    await new Promise((r) => setTimeout(r, 50)); // the pong arrives
    timers.advance(10_000);
    expect(c.state()).toBe('online'); // answered: alive
    timers.advance(15_000); // second ping, never answered
    await until(() => server.last!.frames.filter((f) => f.type === 'ping').length === 2, 'second ping');
    timers.advance(9_999);
    expect(c.state()).toBe('online');
    timers.advance(1);
    expect(c.state()).toBe('offline');
    expect(timers.pending()).toEqual([250]); // reconnect scheduled with backoff
  });

  it('the device losing its network pings at once, and 3 s of silence then means dead', async () => {
    let wake: (networkLost?: boolean) => void = () => {};
    const c = connect({ wakeSource: (w) => ((wake = w), () => {}) });
    await until(() => c.state() === 'online', 'online');
    wake(true);
    await until(() => server.last!.frames.some((f) => f.type === 'ping'), 'a ping at once');
    timers.advance(2_999);
    expect(c.state()).toBe('online');
    timers.advance(1);
    expect(c.state()).toBe('offline');
  });

  it('a gateway that answers the ping sent as the network goes stays online (it may be on this machine)', async () => {
    server.onFrame((s, f) => {
      if (f.type === 'ping') s.send({ type: 'pong', payload: { ts: f.payload.ts } });
    });
    let wake: (networkLost?: boolean) => void = () => {};
    const c = connect({ wakeSource: (w) => ((wake = w), () => {}) });
    await until(() => c.state() === 'online', 'online');
    wake(true);
    await until(() => server.last!.frames.some((f) => f.type === 'ping'), 'a ping at once');
    await new Promise((r) => setTimeout(r, 50)); // the pong arrives
    timers.advance(10_000);
    expect(c.state()).toBe('online');
  });

  it('backs off exponentially with full jitter up to 30 s', async () => {
    await server.close();
    server = await ScriptedServer.start(); // a port that refuses: use a closed one instead
    const port = Number(new URL(server.url).port);
    await server.close();
    const draws: number[] = [];
    const c = connect({ url: `ws://127.0.0.1:${port}/ws`, random: () => 0.999 });
    for (let attempt = 0; attempt < 9; attempt++) {
      await until(() => c.state() === 'offline' && timers.pending().length === 1, `attempt ${attempt} refused`);
      draws.push(timers.pending()[0]!);
      timers.advance(timers.pending()[0]!);
    }
    expect(draws).toEqual([499, 999, 1998, 3996, 7992, 15984, 29970, 29970, 29970]);
    server = await ScriptedServer.start(); // for afterEach
  });

  it('the backoff starts again from 0.5 s once a connection pairs', async () => {
    const c = connect({ random: () => 0.999 });
    for (let round = 0; round < 3; round++) {
      await until(() => c.state() === 'online', 'online');
      server.last!.ws.terminate();
      await until(() => c.state() === 'offline', 'offline');
      expect(timers.pending()).toEqual([499]);
      timers.advance(499);
    }
  });

  it('the backoff delay is uniform in [0, ceiling)', () => {
    expect(backoffDelay(0, () => 0)).toBe(0);
    expect(backoffDelay(0, () => 0.999999)).toBe(499);
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
    expect(backoffDelay(20, () => 0.999999)).toBe(29_999);
    expect(backoffDelay(1000, () => 0.5)).toBe(15_000);
  });

  it('coming back online or visible retries at once instead of waiting out the backoff', async () => {
    let wake: () => void = () => {};
    const c = connect({ wakeSource: (w) => ((wake = w), () => {}), random: () => 0.999 });
    await until(() => c.state() === 'online', 'online');
    server.last!.ws.terminate();
    await until(() => c.state() === 'offline', 'offline');
    expect(timers.pending()).toEqual([499]);
    wake();
    await until(() => c.state() === 'online', 'online at once');
    expect(server.sockets).toHaveLength(2);
    expect(timers.pending()).not.toContain(499);
  });
});
