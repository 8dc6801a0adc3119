// Follows WebSocket frames (RFC 6455 §5.2) in one direction of a byte stream, so the fault proxy can
// stop a stream strictly inside a frame: a cut "mid-frame" is the hardest kind for a peer to handle.
import { headerLength, payloadLength } from '../proxy/frame-boundary';

const HEAD_END = Buffer.from('\r\n\r\n');

export class WsFrameTracker {
  /** Bytes of the HTTP head still to skip (the 101 response precedes the frames going to the app). */
  private inHead: boolean;
  private headTail = Buffer.alloc(0);
  private header: number[] = [];
  private payloadLeft = 0;

  constructor(opts: { skipHttpHead: boolean }) {
    this.inHead = opts.skipHttpHead;
  }

  /** True when the bytes seen so far end between two frames. */
  get atBoundary(): boolean {
    return !this.inHead && this.header.length === 0 && this.payloadLeft === 0;
  }

  observe(chunk: Uint8Array): void {
    this.walk(chunk, () => false);
  }

  /**
   * How many bytes of `chunk` to forward so that the stream ends strictly inside a frame (halfway
   * through the first frame that ends in this chunk). Undefined when the chunk holds no frame bytes.
   * Does not change the tracker.
   */
  cutPoint(chunk: Uint8Array): number | undefined {
    const probe = this.clone();
    const start = probe.skipHead(chunk, 0);
    if (start >= chunk.length) return undefined;
    const boundaryAtStart = probe.header.length === 0 && probe.payloadLeft === 0;
    let end = chunk.length;
    probe.walk(chunk.subarray(start), (offset) => {
      end = start + offset;
      return true;
    });
    let cut = start + Math.floor((end - start) / 2);
    if (boundaryAtStart && cut === start) cut = start + 1;
    return Math.min(cut, chunk.length);
  }

  private clone(): WsFrameTracker {
    const t = new WsFrameTracker({ skipHttpHead: this.inHead });
    t.headTail = this.headTail;
    t.header = [...this.header];
    t.payloadLeft = this.payloadLeft;
    return t;
  }

  /** Consumes the HTTP head if still inside it; returns the offset where frame bytes begin. */
  private skipHead(chunk: Uint8Array, from: number): number {
    if (!this.inHead) return from;
    const joined = Buffer.concat([this.headTail, chunk.subarray(from)]);
    const at = joined.indexOf(HEAD_END);
    if (at < 0) {
      this.headTail = joined.subarray(Math.max(0, joined.length - 3));
      return chunk.length;
    }
    this.inHead = false;
    this.headTail = Buffer.alloc(0);
    return from + at + HEAD_END.length - (joined.length - (chunk.length - from));
  }

  /** Walks frame bytes; `onFrameEnd(offset)` is called after each frame's last byte and may stop the walk. */
  private walk(chunk: Uint8Array, onFrameEnd: (offset: number) => boolean): void {
    let i = this.skipHead(chunk, 0);
    while (i < chunk.length) {
      if (this.payloadLeft > 0) {
        const take = Math.min(this.payloadLeft, chunk.length - i);
        this.payloadLeft -= take;
        i += take;
        if (this.payloadLeft === 0 && onFrameEnd(i)) return;
        continue;
      }
      this.header.push(chunk[i++]!);
      const needed = headerLength(this.header);
      if (needed === undefined || this.header.length < needed) continue;
      this.payloadLeft = payloadLength(this.header);
      this.header = [];
      if (this.payloadLeft === 0 && onFrameEnd(i)) return;
    }
  }
}
