// The harness's own devices on the gateway (Node, through the protocol, like any app): they start
// the stream, fill an offline device's outbox, and upload the media file the pages pull.
import { createHash, randomBytes } from 'node:crypto';
import { TestClient } from '../../server/gateway/testclient';
import { NotMeasured } from './figures';
import type { BenchServer } from './server';

export const LANE = 'web:default';
const CHUNK = 256 * 1024;

function device(server: BenchServer, id: string): Promise<TestClient> {
  return TestClient.paired(server.wsUrl, {
    token: server.token,
    device_id: id,
    device_name: id,
    caps: { min_protocol: 1, media: true, push: 'none' },
  });
}

/** A third device sends `/stream n` in the lane; the demo agent then streams to every device. */
export function startStream(server: BenchServer, n: number): Promise<void> {
  return askAgent(server, `/stream ${n}`);
}

/** A third device sends `text` in the lane (a demo command); the demo agent answers every device. */
export async function askAgent(server: BenchServer, text: string): Promise<void> {
  const c = await device(server, 'bench-trigger');
  try {
    const echo = await c.request('message.send', { text, client_id: `bench-${Date.now()}` }, { chat_id: LANE });
    if (echo.type !== 'message')
      throw new Error(`the gateway refused ${text.split(' ')[0]}: ${JSON.stringify(echo.payload)}`);
  } finally {
    await c.close();
  }
}

/** Makes `id` a device the gateway knows (so frames are outboxed for it) and leaves it offline. */
export async function registerOfflineDevice(server: BenchServer, id: string): Promise<void> {
  await (await device(server, id)).close();
}

/**
 * Another device chats in the lane until `target` frames are outboxed for `offlineDevice` after
 * `fromCursor` (messages, tool cards, stops… as a real conversation produces them). Returns the count.
 */
export async function fillOutbox(
  server: BenchServer,
  offlineDevice: string,
  fromCursor: number,
  target: number,
): Promise<number> {
  const devices = server.server.gateway!.store.devices;
  const pending = () => devices.since(offlineDevice, fromCursor).length;
  const c = await device(server, 'bench-producer');
  try {
    let n = 0;
    while (pending() < target) {
      // A batch of messages at once: the lane queues the agent's turns.
      const batch = Math.max(1, Math.min(50, Math.ceil((target - pending()) / 12)));
      const echoes = [];
      for (let i = 0; i < batch; i++)
        echoes.push(
          c.request(
            'message.send',
            { text: `Catch-up message ${++n}: deploy the server and check the logs.`, client_id: `fill-${n}` },
            { chat_id: LANE },
            30_000,
          ),
        );
      await Promise.all(echoes);
      await waitIdle(c, 60_000);
    }
    return pending();
  } finally {
    await c.close();
  }
}

/** Until the lane has had no running turn for a moment (agent.idle and then quiet). */
async function waitIdle(c: TestClient, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = c.frames.length;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Read receipts the app's own device sends after the idle are relayed here too: not agent work.
    const last = c.frames.findLast((f) => f.type !== 'read.receipt' && f.type !== 'pong');
    if (c.frames.length === seen && last?.type === 'agent.idle') return;
    seen = c.frames.length;
    if (Date.now() > deadline) throw new NotMeasured('the demo agent did not go idle');
  }
}

/**
 * Uploads `size` random bytes as a document and sends it in the lane (so every device learns of it,
 * as with any attachment); returns the gateway's media_id once the demo agent has answered.
 */
export async function uploadMedia(server: BenchServer, size: number, filename: string): Promise<string> {
  const bytes = randomBytes(size);
  const c = await device(server, 'bench-uploader');
  try {
    const ref = `bench-media-${Date.now()}`;
    const id = c.takeId();
    const answer = c.waitFor((f) => f.id === id, { from: c.mark(), timeoutMs: 120_000, what: 'media.upload.ack' });
    c.send(
      'media.upload.start',
      { media_ref: ref, kind: 'document', mime: 'application/octet-stream', size, filename },
      { id },
    );
    for (let off = 0; off < size; off += CHUNK) c.sendRaw(bytes.subarray(off, off + CHUNK), true);
    c.send('media.upload.end', { media_ref: ref, sha256: createHash('sha256').update(bytes).digest('hex') });
    const ack = await answer;
    if (ack.type !== 'media.upload.ack') throw new Error(`upload refused: ${JSON.stringify(ack.payload)}`);
    const media = server.server.gateway!.store.media.byRef(ref);
    if (!media) throw new Error('the gateway does not know the uploaded file');
    // Sent without the client_id extension: the app takes a user message with a client_id for its own
    // echo and waits for its own bytes instead of offering a download (reported; see bench/README.md).
    const echo = await c.request('message.send', { text: 'The benchmark file', media_refs: [ref] }, { chat_id: LANE });
    if (echo.type !== 'message')
      throw new Error(`the gateway refused the message with the file: ${JSON.stringify(echo.payload)}`);
    await waitIdle(c, 60_000);
    return media.media_id;
  } finally {
    await c.close();
  }
}
