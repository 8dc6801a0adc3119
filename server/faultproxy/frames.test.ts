import { describe, expect, it } from 'vitest';
import { WsFrameTracker } from './frames';

/** An unmasked (server) frame, or a masked (client) one. */
function frame(payload: Buffer, masked = false): Buffer {
  const len = payload.length;
  const ext = len < 126 ? Buffer.alloc(0) : len < 65536 ? Buffer.alloc(2) : Buffer.alloc(8);
  if (len >= 126 && len < 65536) ext.writeUInt16BE(len);
  if (len >= 65536) ext.writeBigUInt64BE(BigInt(len));
  const b1 = (masked ? 0x80 : 0) | (len < 126 ? len : len < 65536 ? 126 : 127);
  const mask = masked ? Buffer.from([1, 2, 3, 4]) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from([0x81, b1]), ext, mask, payload]);
}

const HEAD = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n');

describe('WsFrameTracker', () => {
  it('knows where frames end across any chunking, after the HTTP head', () => {
    const frames = [
      frame(Buffer.alloc(0)),
      frame(Buffer.alloc(5, 1)),
      frame(Buffer.alloc(300, 2)),
      frame(Buffer.alloc(70_000, 3)),
    ];
    const stream = Buffer.concat([HEAD, ...frames]);
    const ends = new Set<number>([HEAD.length]);
    let at = HEAD.length;
    for (const f of frames) ends.add((at += f.length));
    const wrong: string[] = [];
    for (const size of [1, 2, 3, 7, 64, 1000, stream.length]) {
      const t = new WsFrameTracker({ skipHttpHead: true });
      for (let off = 0; off < stream.length; off += size) {
        const end = Math.min(stream.length, off + size);
        t.observe(stream.subarray(off, end));
        if (t.atBoundary !== ends.has(end)) wrong.push(`chunk ${size}, at ${end}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('picks a cut point strictly inside a frame, wherever the chunk starts', () => {
    const stream = Buffer.concat([
      HEAD,
      frame(Buffer.from('{"type":"hello.ack"}')),
      frame(Buffer.alloc(200, 7), true),
      frame(Buffer.alloc(1)),
    ]);
    for (const size of [1, 2, 5, 33, stream.length]) {
      for (let start = 0; start < stream.length; start += size) {
        const t = new WsFrameTracker({ skipHttpHead: true });
        t.observe(stream.subarray(0, start));
        const chunk = stream.subarray(start, Math.min(stream.length, start + size));
        const cut = t.cutPoint(chunk);
        const stillInHead = start + chunk.length <= HEAD.length;
        if (stillInHead) {
          expect(cut).toBeUndefined();
          continue;
        }
        expect(cut).toBeDefined();
        t.observe(chunk.subarray(0, cut));
        expect(t.atBoundary, `chunk ${size} at ${start}, cut ${cut}`).toBe(false);
      }
    }
  });
});
