// Hardening of the reference gateway (issue 9, "Against the gateway"): the token check, size limits,
// media paths, rate limiting, and malformed input that must never stop it answering.
import * as crypto from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CLIENT_FRAME_TYPES, parseFrame } from '../../src/protocol';
import type { TestClient } from './testclient';
import { useGateway } from './testing';

// The token check must go through crypto.timingSafeEqual; this records each comparison it makes.
const comparisons: { a: number; b: number }[] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      comparisons.push({ a: a.byteLength, b: b.byteLength });
      return real.timingSafeEqual(a, b);
    },
  };
});

const TOKEN = 'sec-9f2c41d7e0b84a55b3e1c6a2d8f07e4b';
// The data dir deep enough in the test's temporary directory that a relative "../../x" from the media
// directory still lands inside it.
const fixture = useGateway({ token: TOKEN, streamDelayMs: 0, tempDataDir: join('one', 'two', 'data') });
const { logs } = fixture;

const paired = (deviceId = 'sec-dev') => fixture.device(deviceId);

/** Offers `token` in hello on a new connection; resolves with the answer and the close code. */
async function offer(token: unknown): Promise<{ type: string; code?: string; close: number }> {
  const c = await fixture.connect();
  const answer = await c.request('hello', { token, device_id: 'guess', device_name: 'x' } as Record<string, unknown>);
  const close = await c.closed;
  return { type: answer.type, code: answer.payload.code, close };
}

async function stillAnswers(c: TestClient): Promise<void> {
  const pong = await c.request('ping', { ts: 42 }, {}, 10_000);
  expect(pong).toMatchObject({ type: 'pong', payload: { ts: 42 } });
}

describe('the token', () => {
  it('refuses wrong tokens of every length, every prefix and near misses, comparing fixed-size digests', async () => {
    // Every guess must reach the comparison here: no waits after failed hellos (hardening.test.ts tests those).
    await fixture.restart({ helloBackoff: { free: Number.MAX_SAFE_INTEGER } });
    const wrong = new Set<unknown>();
    for (let n = 0; n <= TOKEN.length * 2; n++) wrong.add('x'.repeat(n));
    for (let n = 0; n < TOKEN.length; n++) wrong.add(TOKEN.slice(0, n));
    for (const t of [
      TOKEN + 'x',
      TOKEN + ' ',
      ' ' + TOKEN,
      TOKEN + '\u0000',
      TOKEN.toUpperCase(),
      TOKEN.slice(1),
      `${TOKEN.slice(0, -1)}c`,
      TOKEN.normalize('NFD') + '\u0301',
    ])
      wrong.add(t);
    for (const t of [null, 0, 1, true, [TOKEN], { token: TOKEN }, { toString: TOKEN }]) wrong.add(t);
    comparisons.length = 0;
    const tokens = [...wrong];
    for (let i = 0; i < tokens.length; i += 16) {
      const batch = tokens.slice(i, i + 16);
      const results = await Promise.all(batch.map(offer));
      for (const [j, result] of results.entries()) {
        expect(result, `token ${JSON.stringify(batch[j])}`).toEqual({ type: 'error', code: 'auth', close: 1008 });
      }
    }
    expect(fixture.gw.gateway.store.devices.get('guess')).toBeUndefined();
    // Every string offered was compared in constant time, on equal-length digests (no early length exit).
    const strings = [...wrong].filter((t) => typeof t === 'string').length;
    expect(comparisons.length).toBe(strings);
    expect(comparisons.every((c) => c.a === c.b && c.a === 32)).toBe(true);

    comparisons.length = 0;
    await paired('rightful');
    expect(comparisons).toEqual([{ a: 32, b: 32 }]);
  }, 90_000);

  it('never puts the token in a log line or an error message', async () => {
    const c = await fixture.connect();
    await c.request('hello', { token: TOKEN.slice(0, -2), device_id: 'd' });
    const ok = await paired('log-dev');
    await ok.request('message.send', { text: TOKEN, client_id: 'c1' }, { chat_id: 'no-such-lane' });
    ok.sendRaw('{"v":1,"type":"hello","payload":{"token":"' + TOKEN + '"}}');
    await stillAnswers(ok);
    const seen = [...logs, ...c.raw, ...ok.raw.filter((r) => !r.includes('"text"'))].join('\n');
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain(TOKEN.slice(0, -2));
  });
});

describe('size limits', () => {
  it('answers a text frame over the limit with an error and keeps going; an absurd one closes only that socket', async () => {
    await fixture.restart({ maxFrameBytes: 64 * 1024 });
    const c = await paired();
    const mark = c.mark();
    c.send('message.send', { text: 'y'.repeat(70 * 1024), client_id: 'big' }, { id: 77, chat_id: 'web:default' });
    const err = await c.waitType('error', { from: mark });
    expect(err.payload.code).toBe('unsupported');
    expect(fixture.gw.gateway.store.messages('web:default')).toEqual([]);
    await stillAnswers(c);

    const other = await paired('other');
    c.sendRaw('z'.repeat(4 * 1024 * 1024 + 1));
    expect(await c.closed).toBe(1009);
    await stillAnswers(other);
  });

  it('refuses media over the limit, announced or sent', async () => {
    await fixture.restart({ maxMediaBytes: 100_000 });
    const c = await paired();
    const announced = await c.request('media.upload.start', {
      media_ref: 'r1',
      kind: 'document',
      mime: 'text/plain',
      size: 100_001,
      filename: 'a',
    });
    expect(announced.payload.code).toBe('media_too_large');
    const lying = c.request('media.upload.start', {
      media_ref: 'r2',
      kind: 'document',
      mime: 'text/plain',
      size: 10,
      filename: 'b',
    });
    for (let i = 0; i < 5; i++) c.sendRaw(Buffer.alloc(30_000, i), true);
    expect((await lying).payload.code).toBe('media_too_large');
    await stillAnswers(c);
    expect(fixture.gw.gateway.store.media.list()).toEqual([]);
    expect(readdirSync(fixture.dataDir).includes('media') ? readdirSync(join(fixture.dataDir, 'media')) : []).toEqual(
      [],
    );
  });

  it('ignores binary frames when no upload is open', async () => {
    const c = await paired();
    for (let i = 0; i < 20; i++) c.sendRaw(crypto.randomBytes(256 * 1024), true);
    await stillAnswers(c);
    expect(fixture.gw.gateway.store.media.list()).toEqual([]);
  });
});

describe('media paths', () => {
  const hostileNames = [
    '../../etc/passwd',
    '..\\..\\windows\\system32\\config\\sam',
    '/etc/passwd',
    'C:\\boot.ini',
    '....//....//x',
    '%2e%2e%2f%2e%2e%2fescape',
    'a/../../../b',
    '..',
    '.',
    'nul\u0000byte.txt',
    '\u202etxt.exe',
    'x'.repeat(5000),
    '',
  ];

  it('stores every upload inside the media directory under a gateway-made name, whatever the filename says', async () => {
    const c = await paired();
    for (const [i, filename] of hostileNames.entries()) {
      const bytes = Buffer.from(`file ${i}`);
      const id = c.peekId();
      const ack = c.request('media.upload.start', {
        media_ref: `ref-${i}`,
        kind: 'document',
        mime: 'text/plain',
        size: bytes.length,
        filename,
      });
      c.sendRaw(bytes, true);
      c.send(
        'media.upload.end',
        { media_ref: `ref-${i}`, sha256: crypto.createHash('sha256').update(bytes).digest('hex') },
        { id },
      );
      expect((await ack).type, `upload ${JSON.stringify(filename).slice(0, 40)}`).toBe('media.upload.ack');
    }
    const records = fixture.gw.gateway.store.media.list();
    expect(records).toHaveLength(hostileNames.length);
    for (const r of records) {
      expect(r.media_id).toMatch(/^med_[0-9a-f]{32}$/);
      expect(r.filename).not.toMatch(/[\\/\u0000-\u001f]/);
      expect(r.filename).not.toMatch(/^\.\.?$/);
      expect(r.filename.length).toBeLessThanOrEqual(200);
    }
    // Nothing was written outside dataDir; inside it, media bytes only as media/med_<hex>.bin.
    const inData = relative(fixture.tempDir, fixture.dataDir);
    expect(
      listTree(fixture.tempDir).filter(
        (p) => p !== 'one' && p !== join('one', 'two') && p !== inData && !p.startsWith(inData + '/'),
      ),
    ).toEqual([]);
    const mediaFiles = readdirSync(join(fixture.dataDir, 'media'));
    expect(mediaFiles.sort()).toEqual(records.map((r) => `${r.media_id}.bin`).sort());
    for (const r of records)
      expect(readFileSync(join(fixture.dataDir, 'media', `${r.media_id}.bin`)).toString()).toMatch(/^file \d+$/);
  });

  it('serves media back by its id only: a path or a filename is not_found', async () => {
    const c = await paired();
    const bytes = Buffer.from('secret-free bytes');
    const id = c.peekId();
    const ack = c.request('media.upload.start', {
      media_ref: 'ok',
      kind: 'document',
      mime: 'text/plain',
      size: bytes.length,
      filename: '../../etc/passwd',
    });
    c.sendRaw(bytes, true);
    c.send(
      'media.upload.end',
      { media_ref: 'ok', sha256: crypto.createHash('sha256').update(bytes).digest('hex') },
      { id },
    );
    await ack;
    const [record] = fixture.gw.gateway.store.media.list();
    for (const media_id of [
      '../../etc/passwd',
      'passwd',
      '../media.json',
      `${record!.media_id}/../../media.json`,
      `${record!.media_id}.bin`,
      'med_' + '0'.repeat(32),
      '',
      5,
      null,
    ]) {
      const answer = await c.request('media.pull', { media_id } as Record<string, unknown>);
      expect(answer.payload.code, `media_id ${JSON.stringify(media_id)}`).toBe('not_found');
    }
    const mark = c.binaries.length;
    const pulled = await c.request('media.pull', { media_id: record!.media_id });
    expect(pulled.type).toBe('media.pull.end');
    expect(Buffer.concat(c.binaries.slice(mark)).toString()).toBe('secret-free bytes');
    // A message cannot name a path as its media either.
    const send = await c.request(
      'message.send',
      { text: 'x', client_id: 'm', media_refs: ['../../etc/passwd'] },
      { chat_id: 'web:default' },
    );
    expect(send.type).toBe('error');
  });
});

describe('rate limiting', () => {
  it('answers a flood of requests with rate_limited (each with its id), then serves the client again', async () => {
    await fixture.restart({ rateLimit: { burst: 50, perSecond: 20 } });
    const c = await paired();
    const other = await paired('calm');
    const mark = c.mark();
    const first = c.peekId();
    for (let i = 0; i < 400; i++) c.send('ping', { ts: i }, { id: c.takeId() });
    await c.waitFor((f) => f.id === first + 399, { from: mark, timeoutMs: 10_000 });
    const answers = c.frames.slice(mark);
    const limited = answers.filter((f) => f.type === 'error' && f.payload.code === 'rate_limited');
    expect(limited.length).toBeGreaterThan(300);
    expect(answers.filter((f) => f.type === 'pong').length).toBeGreaterThanOrEqual(50);
    expect(new Set(answers.map((f) => f.id)).size).toBe(400); // every request answered once
    // Another connection is not slowed down by it.
    await stillAnswers(other);
    await new Promise((r) => setTimeout(r, 600));
    await stillAnswers(c);
  });

  it('sends an id-less flood at most one rate_limited a second', async () => {
    await fixture.restart({ rateLimit: { burst: 10, perSecond: 5 } });
    const c = await paired();
    const mark = c.mark();
    for (let i = 0; i < 500; i++)
      c.send('read.receipt', { chat_id: 'web:default', message_id: `m${i}` }, { chat_id: 'web:default' });
    await new Promise((r) => setTimeout(r, 400));
    expect(c.ofType('error', mark).filter((f) => f.payload.code === 'rate_limited').length).toBeLessThanOrEqual(1);
  });
});

describe('malformed input', () => {
  const spec = JSON.parse(readFileSync(resolve(process.cwd(), '../shared/spec/frames.schema.json'), 'utf8')) as {
    frame_types: { app_to_server: Record<string, { payload?: Record<string, unknown> }> };
  };
  /** Payload fields per client frame type: the schema's, plus protocol.py's and the documented extensions. */
  const extra: Record<string, string[]> = {
    'message.send': ['client_id'],
    'message.delete': ['message_ids'],
    'channel.favorite': ['favorite'],
    'channel.icon': ['icon', 'color'],
    hello: ['webpush'],
    'fcm.register': ['webpush'],
    'channel.list': [],
  };
  const deep = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n));
  const wrongValues: unknown[] = [
    null,
    true,
    0,
    -1,
    1.5,
    2 ** 53,
    'x',
    '',
    'x'.repeat(100_000),
    [],
    [1, 'a', null],
    {},
    { a: { b: [] } },
    deep(500),
    '__proto__',
    { __proto__: { polluted: 1 } },
  ];

  it('survives wrong types in every field of every client frame, and answers ping after each', async () => {
    await fixture.restart({ rateLimit: { burst: 100_000, perSecond: 100_000 } });
    const c = await paired();
    let sent = 0;
    for (const type of CLIENT_FRAME_TYPES) {
      if (type === 'hello') continue;
      const fields = [...Object.keys(spec.frame_types.app_to_server[type]?.payload ?? {}), ...(extra[type] ?? [])];
      for (const field of fields) {
        for (const value of wrongValues) {
          c.sendRaw(
            JSON.stringify({ v: 1, id: c.takeId(), type, chat_id: 'web:default', payload: { [field]: value } }),
          );
          sent++;
        }
      }
      // The envelope itself, wrong in every field.
      for (const value of wrongValues) {
        for (const env of ['id', 'chat_id', 'thread_id', 'v', 'payload']) {
          c.sendRaw(JSON.stringify({ v: 1, type, payload: {}, [env]: value }));
          sent++;
        }
      }
      await stillAnswers(c);
    }
    expect(sent).toBeGreaterThan(1000);
    // What was accepted is well-formed: strings where strings belong, bounded names.
    for (const ch of fixture.gw.gateway.store.channels.list()) {
      expect(ch.chat_id).toMatch(/^web:/);
      expect(typeof ch.name === 'string' && ch.name.length > 0 && ch.name.length <= 200).toBe(true);
      expect(['default', 'channel', 'thread']).toContain(ch.kind);
    }
    for (const m of fixture.gw.gateway.store.messages('web:default')) {
      expect(typeof m.text).toBe('string');
      expect(typeof m.message_id).toBe('string');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // No handler threw: every bad value was refused by validation, not by a crash caught later.
    expect(logs.filter((l) => /failed/.test(l))).toEqual([]);
  }, 120_000);

  it('ignores random bytes, broken JSON, huge nesting and wrong envelopes, before and after pairing', async () => {
    const junk: string[] = [
      '',
      ' ',
      'null',
      '[]',
      '"hello"',
      '{"type":5}',
      '{"type":"ping","payload":"x"}',
      '{"type":"' + 'p'.repeat(100_000) + '"}',
      '['.repeat(200_000) + ']'.repeat(200_000),
      '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
      '['.repeat(1_000_000),
      '{"v":1,"type":"ping","payload":{"ts":1}'.repeat(3),
      '\u0000\u0001\ufffd\ud800',
    ];
    // Random bytes, made valid UTF-8 (a text frame that is not UTF-8 fails the connection, RFC 6455 §8.1).
    for (let i = 0; i < 30; i++) junk.push(crypto.randomBytes(1 + ((i * 997) % 5000)).toString('latin1'));
    // Before pairing, the first thing that is not a frame ends that socket (1008; 1009 when it is over the
    // small pre-hello limit), and pairing still works on the next one. (A valid frame other than hello is
    // refused with error auth and a close, spec README §3.)
    for (const j of junk.filter((x) => parseFrame(x) === null)) {
      const stranger = await fixture.connect();
      stranger.sendRaw(j);
      expect([1008, 1009], JSON.stringify(j.slice(0, 40))).toContain(await stranger.closed);
    }
    const fresh = await fixture.connect();
    expect((await fresh.hello({ token: TOKEN, device_id: 'after-junk' })).type).toBe('hello.ack');
    // After pairing: as text and as binary frames.
    const c = await paired();
    for (const j of junk) {
      c.sendRaw(j);
      c.sendRaw(Buffer.from(j, 'latin1'), true);
    }
    for (let i = 0; i < 30; i++) c.sendRaw(crypto.randomBytes(1 + ((i * 991) % 50_000)), true);
    await stillAnswers(c);
    await stillAnswers(fresh);
    // Bytes that are not UTF-8 in a text frame end that connection only (1007); the gateway goes on.
    const broken = await paired('broken-utf8');
    broken.sendRaw(Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]));
    expect(await broken.closed).toBe(1007);
    await stillAnswers(c);
    expect(logs.filter((l) => /failed/.test(l))).toEqual([]);
  }, 60_000);

  it('keeps answering when a deeply nested request is valid JSON', async () => {
    const c = await paired();
    for (const type of ['message.send', 'search', 'history', 'channel.create', 'picker.select', 'sync']) {
      const nested = '{"x":'.repeat(50_000) + '1' + '}'.repeat(50_000);
      c.sendRaw(
        `{"v":1,"id":${c.takeId()},"type":"${type}","chat_id":"web:default","payload":{"text":${nested},"query":${nested},"name":${nested},"cursor":${nested}}}`,
      );
    }
    await stillAnswers(c);
    expect(logs.filter((l) => /failed/.test(l))).toEqual([]);
  });
});

function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(dir, name);
      out.push(relative(root, full));
      try {
        if (statSync(full).isDirectory() && out.length < 20_000) walk(full);
      } catch {
        // vanished meanwhile
      }
    }
  };
  walk(root);
  return out;
}
