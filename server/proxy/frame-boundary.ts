/**
 * Follows the WebSocket frames (RFC 6455 §5.2) in a byte stream without touching it, so the
 * proxy knows when it sits between two frames: only there can it add a close frame of its
 * own when the upstream vanishes, instead of cutting a frame in half.
 */
export class FrameBoundaryTracker {
  private header: number[] = [];
  private payloadLeft = 0;
  private closeSeen = false;

  /** True once a close frame has started in this direction. */
  get sawClose(): boolean {
    return this.closeSeen;
  }

  /** True when the bytes seen so far end exactly at the end of a frame. */
  get atBoundary(): boolean {
    return this.header.length === 0 && this.payloadLeft === 0;
  }

  observe(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.payloadLeft > 0) {
        const take = Math.min(this.payloadLeft, chunk.length - i);
        this.payloadLeft -= take;
        i += take;
        continue;
      }
      this.header.push(chunk[i++]!);
      const needed = headerLength(this.header);
      if (needed === undefined || this.header.length < needed) continue;
      if ((this.header[0]! & 0x0f) === 0x8) this.closeSeen = true;
      this.payloadLeft = payloadLength(this.header);
      this.header = [];
    }
  }
}

/** Total header length once the first two bytes are known. */
export function headerLength(header: number[]): number | undefined {
  if (header.length < 2) return undefined;
  const len7 = header[1]! & 0x7f;
  const masked = (header[1]! & 0x80) !== 0;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + (masked ? 4 : 0);
}

/** The payload length a complete header announces. */
export function payloadLength(header: number[]): number {
  const len7 = header[1]! & 0x7f;
  if (len7 < 126) return len7;
  const bytes = Buffer.from(header);
  return len7 === 126 ? bytes.readUInt16BE(2) : Number(bytes.readBigUInt64BE(2));
}

/** An unmasked (server-to-client) close frame. The reason must fit the 123-byte limit. */
export function serverCloseFrame(code: number, reason: string): Buffer {
  const reasonBytes = Buffer.from(reason, 'utf8').subarray(0, 123);
  const frame = Buffer.alloc(4 + reasonBytes.length);
  frame[0] = 0x88; // FIN + opcode 8 (close)
  frame[1] = 2 + reasonBytes.length;
  frame.writeUInt16BE(code, 2);
  reasonBytes.copy(frame, 4);
  return frame;
}
