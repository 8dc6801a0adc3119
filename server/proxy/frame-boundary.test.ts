import { describe, expect, it } from 'vitest';
import { FrameBoundaryTracker, serverCloseFrame } from './frame-boundary';

function frame(opcode: number, payload: Buffer, { fin = true, mask }: { fin?: boolean; mask?: Buffer } = {}): Buffer {
  const len = payload.length;
  const long = Buffer.alloc(8);
  long.writeBigUInt64BE(BigInt(len));
  const lenBytes = len < 126 ? [len] : len < 65536 ? [126, len >> 8, len & 0xff] : [127, ...long];
  const head = Buffer.from([(fin ? 0x80 : 0) | opcode, (mask ? 0x80 : 0) | lenBytes[0]!, ...lenBytes.slice(1)]);
  if (!mask) return Buffer.concat([head, payload]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([head, mask, masked]);
}

/** Feeds the stream one byte at a time and records where the tracker says a frame ended. */
function boundaries(stream: Buffer): number[] {
  const tracker = new FrameBoundaryTracker();
  const ends: number[] = [];
  for (let i = 0; i < stream.length; i++) {
    tracker.observe(stream.subarray(i, i + 1));
    if (tracker.atBoundary) ends.push(i + 1);
  }
  return ends;
}

describe('FrameBoundaryTracker', () => {
  it('finds the end of frames with 7-bit, 16-bit and 64-bit lengths, byte by byte', () => {
    const a = frame(0x1, Buffer.from('hi'));
    const b = frame(0x2, Buffer.alloc(300, 7));
    const c = frame(0x2, Buffer.alloc(70_000, 1));
    const d = frame(0x9, Buffer.alloc(0));
    const stream = Buffer.concat([a, b, c, d]);
    expect(boundaries(stream)).toEqual([a.length, a.length + b.length, a.length + b.length + c.length, stream.length]);
  });

  it('handles masked frames and fragments, and whole chunks at once', () => {
    const mask = Buffer.from([1, 2, 3, 4]);
    const parts = [frame(0x1, Buffer.from('hel'), { fin: false, mask }), frame(0x0, Buffer.from('lo'), { mask })];
    expect(boundaries(Buffer.concat(parts))).toEqual([parts[0]!.length, parts[0]!.length + parts[1]!.length]);
    const tracker = new FrameBoundaryTracker();
    tracker.observe(Buffer.concat(parts).subarray(0, 5));
    expect(tracker.atBoundary).toBe(false);
    tracker.observe(Buffer.concat(parts).subarray(5));
    expect(tracker.atBoundary).toBe(true);
  });

  it('notices a close frame', () => {
    const tracker = new FrameBoundaryTracker();
    tracker.observe(frame(0x1, Buffer.from('x')));
    expect(tracker.sawClose).toBe(false);
    tracker.observe(serverCloseFrame(1000, 'bye'));
    expect(tracker.sawClose).toBe(true);
    expect(tracker.atBoundary).toBe(true);
  });
});

describe('serverCloseFrame', () => {
  it('is an unmasked close frame with the code and reason', () => {
    expect([...serverCloseFrame(1014, 'gone')]).toEqual([0x88, 6, 0x03, 0xf6, ...Buffer.from('gone')]);
  });
});
