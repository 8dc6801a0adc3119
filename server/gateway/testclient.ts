// A small WebSocket client for the gateway's tests: records every frame, numbers requests like the
// app does (1, 2, 3… per connection) and waits for answers or for frames matching a predicate.
import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { encodeFrame, parseServerFrame, type ServerFrame } from '../../src/protocol';

export type AnyServerFrame = ServerFrame & { payload: Record<string, unknown> & any };

export interface HelloOptions {
  token: string;
  device_id?: string;
  device_name?: string;
  caps?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

const DEFAULT_WAIT_MS = 5000;
const UPLOAD_CHUNK = 256 * 1024;

export class TestClient {
  readonly frames: AnyServerFrame[] = [];
  readonly binaries: Buffer[] = [];
  readonly raw: string[] = [];
  private nextId = 1;
  private waiters: { pred: (f: AnyServerFrame) => boolean; from: number; resolve: (f: AnyServerFrame) => void }[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (isBinary) return void this.binaries.push(buf);
      const text = buf.toString('utf8');
      this.raw.push(text);
      const frame = parseServerFrame(text) as AnyServerFrame | null;
      if (!frame) return;
      this.frames.push(frame);
      const index = this.frames.length - 1;
      this.waiters = this.waiters.filter((w) => {
        if (index >= w.from && w.pred(frame)) {
          w.resolve(frame);
          return false;
        }
        return true;
      });
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
  }

  static async connect(url: string): Promise<TestClient> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TestClient(ws);
  }

  /** Connect and pair; rejects if the gateway does not answer hello.ack. */
  static async paired(url: string, hello: HelloOptions): Promise<TestClient> {
    const c = await TestClient.connect(url);
    const ack = await c.hello(hello);
    if (ack.type !== 'hello.ack') throw new Error(`pairing failed: ${JSON.stringify(ack.payload)}`);
    return c;
  }

  hello(h: HelloOptions): Promise<AnyServerFrame> {
    return this.request('hello', {
      token: h.token,
      device_id: h.device_id ?? 'dev-' + Math.random().toString(36).slice(2),
      device_name: h.device_name ?? 'test',
      caps: h.caps ?? { min_protocol: 1, media: true, push: 'none' },
      ...h.extra,
    });
  }

  /** Send a frame as-is (no id unless given). */
  send(
    type: string,
    payload: Record<string, unknown> = {},
    env: { id?: number; chat_id?: string; thread_id?: string } = {},
  ): void {
    this.ws.send(encodeFrame({ type, payload, ...env }));
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  /** Send a request with the next id and wait for the frame carrying that id. */
  request(
    type: string,
    payload: Record<string, unknown> = {},
    env: { chat_id?: string; thread_id?: string } = {},
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<AnyServerFrame> {
    const id = this.nextId++;
    const answer = this.waitFor((f) => f.id === id, {
      from: this.frames.length,
      timeoutMs,
      what: `answer to ${type} #${id}`,
    });
    this.send(type, payload, { id, ...env });
    return answer;
  }

  /** The id the next request will get. */
  peekId(): number {
    return this.nextId;
  }

  takeId(): number {
    return this.nextId++;
  }

  /** Index to pass as `from` to wait only for frames that arrive after now. */
  mark(): number {
    return this.frames.length;
  }

  waitFor(
    pred: (f: AnyServerFrame) => boolean,
    opts: { from?: number; timeoutMs?: number; what?: string } = {},
  ): Promise<AnyServerFrame> {
    const from = opts.from ?? 0;
    for (let i = from; i < this.frames.length; i++) if (pred(this.frames[i])) return Promise.resolve(this.frames[i]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `timed out waiting for ${opts.what ?? 'a frame'}; got: ${this.frames
              .slice(from)
              .map((f) => f.type)
              .join(', ')}`,
          ),
        );
      }, opts.timeoutMs ?? DEFAULT_WAIT_MS);
      const waiter = {
        pred,
        from,
        resolve: (f: AnyServerFrame) => {
          clearTimeout(timer);
          resolve(f);
        },
      };
      this.waiters.push(waiter);
    });
  }

  waitType(type: string, opts: { from?: number; timeoutMs?: number } = {}): Promise<AnyServerFrame> {
    return this.waitFor((f) => f.type === type, { ...opts, what: type });
  }

  /** Frames of a type received since `from`. */
  ofType(type: string, from = 0): AnyServerFrame[] {
    return this.frames.slice(from).filter((f) => f.type === type);
  }

  /** Send a message (with a client_id) and wait until the agent is idle again in that lane. */
  async chat(
    text: string,
    env: { chat_id?: string; thread_id?: string } = {},
    extra: Record<string, unknown> = {},
  ): Promise<{ echo: AnyServerFrame; stop: AnyServerFrame | undefined; from: number }> {
    const from = this.mark();
    const echo = await this.request(
      'message.send',
      { text, client_id: 'c-' + Math.random().toString(36).slice(2), ...extra },
      env,
    );
    if (echo.type !== 'message') throw new Error(`message.send failed: ${JSON.stringify(echo.payload)}`);
    await this.waitFor((f) => f.type === 'agent.idle', { from, timeoutMs: 10_000, what: 'agent.idle' });
    const stop = this.frames.slice(from).find((f) => f.type === 'message.stop');
    return { echo, stop, from };
  }

  /** Upload bytes as the app does (start with the next id, binary chunks, end); resolves with the answer. */
  upload(
    bytes: Buffer,
    meta: { ref: string; size?: number; sha?: string; kind?: string; filename?: string; mime?: string },
  ): Promise<AnyServerFrame> {
    const id = this.takeId();
    const answer = this.waitFor((f) => f.id === id, { from: this.mark(), what: `answer to upload #${id}` });
    this.send(
      'media.upload.start',
      {
        media_ref: meta.ref,
        kind: meta.kind ?? 'image',
        mime: meta.mime ?? 'image/png',
        size: meta.size ?? bytes.length,
        filename: meta.filename ?? 'pic.png',
      },
      { id },
    );
    for (let off = 0; off < bytes.length; off += UPLOAD_CHUNK)
      this.sendRaw(bytes.subarray(off, off + UPLOAD_CHUNK), true);
    this.send('media.upload.end', {
      media_ref: meta.ref,
      sha256: meta.sha ?? createHash('sha256').update(bytes).digest('hex'),
    });
    return answer;
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}
