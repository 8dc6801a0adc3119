// A Server-Sent Events parser (the WHATWG event-stream format): bytes in, events out. Comments
// (": keepalive") are skipped; an event is dispatched at a blank line; a partial event at the end of
// the stream is dropped, as the format says.
export interface SseEvent {
  data: string;
  event?: string;
  id?: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  private readonly decoder = new TextDecoder();

  /** Feed a chunk; returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = undefined;
        return undefined;
      }
      const ev: SseEvent = {
        data: this.data.join('\n'),
        ...(this.event ? { event: this.event } : {}),
        ...(this.id !== undefined ? { id: this.id } : {}),
      };
      this.data = [];
      this.event = undefined;
      return ev;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}
