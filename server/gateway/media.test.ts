import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, makePng } from './agent/png';
import { TestClient } from './testclient';
import { useGateway } from './testing';

const token = 'media-token';
const CHUNK = 256 * 1024;
const fixture = useGateway({ token, streamDelayMs: 0, maxMediaBytes: 1024 * 1024 });
const { device } = fixture;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function pull(
  c: TestClient,
  mediaId: string,
): Promise<{ end: Awaited<ReturnType<TestClient['request']>>; bytes: Buffer }> {
  const before = c.binaries.length;
  const end = await c.request('media.pull', { media_id: mediaId });
  return { end, bytes: Buffer.concat(c.binaries.slice(before)) };
}

describe('media upload', () => {
  it('accepts chunks, checks sha256, acks with the request id, and attaches the media to a message', async () => {
    const c = await device('dev-a');
    const bytes = Buffer.alloc(600 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const ack = await c.upload(bytes, { ref: 'ref-1', filename: '../../etc/passwd' });
    expect(ack).toMatchObject({ type: 'media.upload.ack', id: 2, payload: { ok: true, media_ref: 'ref-1' } });
    const record = fixture.gw.gateway.store.media.byRef('ref-1')!;
    expect(record).toMatchObject({ size: bytes.length, sha256: sha(bytes), filename: 'passwd', kind: 'image' });
    expect(fixture.gw.gateway.store.mediaBytes(record.media_id)!.equals(bytes)).toBe(true);
    const from = c.mark();
    const echo = await c.request(
      'message.send',
      { text: 'look', media_refs: ['ref-1'], client_id: 'm1' },
      { chat_id: 'web:default' },
    );
    expect(echo.payload.media).toEqual([
      { media_id: record.media_id, kind: 'image', mime: 'image/png', size: bytes.length, filename: 'passwd' },
    ]);
    // An image gets an image back: a media.offer tied to the assistant message.
    const offer = await c.waitType('media.offer', { from });
    const stop = c.ofType('message.stop', from)[0];
    expect(offer.payload).toMatchObject({
      kind: 'image',
      mime: 'image/png',
      filename: 'iris-demo.png',
      message_id: stop.payload.message_id,
    });
    expect(stop.payload.final_text).toContain('**Received:** passwd (image, 614400 bytes)');
  });

  it('refuses an announced size over the limit at start', async () => {
    const c = await device('dev-a');
    const err = await c.request('media.upload.start', {
      media_ref: 'big',
      kind: 'video',
      mime: 'video/mp4',
      size: 2 * 1024 * 1024,
      filename: 'a.mp4',
    });
    expect(err.payload.code).toBe('media_too_large');
    c.sendRaw(Buffer.alloc(10), true); // no open upload: ignored
    expect((await c.request('ping', {})).type).toBe('pong');
  });

  it('refuses bytes that pass the limit while they arrive', async () => {
    const c = await device('dev-a');
    const bytes = Buffer.alloc(1024 * 1024 + CHUNK);
    const from = c.mark();
    const err = await c.upload(bytes, { ref: 'liar', size: 1000 });
    expect(err.payload.code).toBe('media_too_large');
    expect(fixture.gw.gateway.store.media.byRef('liar')).toBeUndefined();
    await c.request('ping', {});
    expect(c.frames.slice(from).map((f) => f.type)).toEqual(['error', 'pong']); // the refused upload's end is ignored
  });

  it('answers internal on a size or sha256 mismatch', async () => {
    const c = await device('dev-a');
    const bytes = Buffer.from('hello media');
    expect((await c.upload(bytes, { ref: 'r1', size: 99 })).payload.code).toBe('internal');
    expect((await c.upload(bytes, { ref: 'r2', sha: 'ab'.repeat(32) })).payload.code).toBe('internal');
    expect(fixture.gw.gateway.store.media.list()).toHaveLength(0);
  });

  it('rejects message.send with an unknown media_ref and stores nothing', async () => {
    const c = await device('dev-a');
    const err = await c.request('message.send', { text: 'x', media_refs: ['nope'] }, { chat_id: 'web:default' });
    expect(err.payload.code).toBe('not_found');
    expect(fixture.gw.gateway.store.messages('web:default')).toHaveLength(0);
  });
});

describe('media pull', () => {
  it('pulls an upload back as binary frames then media.pull.end with the request id', async () => {
    const c = await device('dev-a');
    const bytes = Buffer.alloc(700 * 1024, 3);
    await c.upload(bytes, { ref: 'r' });
    const before = c.binaries.length;
    const { end, bytes: got } = await pull(c, fixture.gw.gateway.store.media.byRef('r')!.media_id);
    expect(end).toMatchObject({ type: 'media.pull.end', payload: { ok: true } });
    expect(c.binaries.length - before).toBe(3);
    expect(c.binaries.slice(before).every((b) => b.length <= CHUNK)).toBe(true);
    expect(got.equals(bytes)).toBe(true);
  });

  it('unknown media is not_found', async () => {
    const c = await device('dev-a');
    expect((await c.request('media.pull', { media_id: 'med_nope' })).payload.code).toBe('not_found');
  });

  it('/image offers a generated PNG that pulls as a valid image', async () => {
    const c = await device('dev-a');
    const { from } = await c.chat('/image a sunset', { chat_id: 'web:default' });
    const offer = c.ofType('media.offer', from)[0];
    expect(offer.chat_id).toBe('web:default');
    const { bytes } = await pull(c, offer.payload.media_id);
    expect(bytes.length).toBe(offer.payload.size);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(64); // IHDR width
    const stored = fixture.gw.gateway.store.messages('web:default').at(-1)!;
    expect(stored.media?.[0].media_id).toBe(offer.payload.media_id);
  });
});

describe('png', () => {
  it('computes the standard CRC-32 and makes chunks a decoder accepts', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const png = makePng('seed', 4);
    // Walk the chunks and check every CRC; inflate IDAT to the expected raw size.
    let off = 8;
    let raw = Buffer.alloc(0);
    while (off < png.length) {
      const len = png.readUInt32BE(off);
      const type = png.subarray(off + 4, off + 8).toString('ascii');
      const body = png.subarray(off + 4, off + 8 + len);
      expect(png.readUInt32BE(off + 8 + len)).toBe(crc32(body));
      if (type === 'IDAT') raw = inflateSync(png.subarray(off + 8, off + 8 + len));
      off += 12 + len;
    }
    expect(raw.length).toBe(4 * (1 + 4 * 3));
  });
});
