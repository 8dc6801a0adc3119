// Sending attachments end to end against the reference gateway: staged files go with the message in
// one message.send after their uploads, the gateway's ids take over the local bytes, a cancel stops
// the upload, a refusal is in words, and a dropped connection finishes the send once.
import 'fake-indexeddb/auto';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFrame } from '../protocol';
import { stagedAttachments } from '../store/models/media';
import { localMessageId } from '../store/models/messages';
import { freshDb } from '../testing/db';
import { defaultLane, pairedClient, userMessages, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';
import { GatewayProxy } from '../testing/proxy';
import { settleSentAttachments } from './adopt';
import { AttachmentRefusedError, queueSendWithMedia, stageAttachment, unstageAttachment } from './outgoing';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway();
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const MiB = 1024 * 1024;

async function setup(opts: Parameters<typeof fixture.restart>[0] = {}) {
  const gw = await fixture.restart(opts);
  const proxy = await GatewayProxy.start(gw.url);
  cleanup.push(() => proxy.close());
  const db = freshDb();
  const c = await pairedClient(db, proxy.url);
  cleanup.push(() => c.stop());
  const lane = await defaultLane(db);
  return { gw, proxy, db, c, lane };
}

describe('staging', () => {
  it('refuses a file over 20 MiB with its size and the limit, storing nothing', async () => {
    const db = freshDb();
    const big = new Blob([new Uint8Array(25 * MiB)], { type: 'application/zip' });
    const err = await stageAttachment(db, big, { lane: 'L', filename: 'big.zip' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AttachmentRefusedError);
    expect((err as Error).message).toBe('“big.zip” is 25 MB; attachments can be at most 20 MB.');
    expect(await db.media.count()).toBe(0);
    expect(await db.mediaBlobs.count()).toBe(0);
  });

  it('stores the file with its kind from the MIME type, keeps it for the lane until removed', async () => {
    const db = freshDb();
    const a = await stageAttachment(db, new Blob(['%PDF'], { type: 'application/pdf' }), {
      lane: 'L',
      filename: '../x/report.pdf',
      now: 1,
    });
    const b = await stageAttachment(db, new Blob(['ogg'], { type: 'audio/webm;codecs=opus' }), {
      lane: 'L',
      recorded: true,
      duration: 2.5,
      now: 2,
    });
    expect(a).toMatchObject({
      kind: 'document',
      mime: 'application/pdf',
      filename: 'report.pdf',
      state: 'local',
      size: 4,
    });
    expect(b).toMatchObject({
      kind: 'voice',
      mime: 'audio/webm',
      duration: 2.5,
      filename: 'audio-19700101-000000.webm',
    });
    expect((await stagedAttachments(db, 'L')).map((r) => r.media_id)).toEqual([a.media_id, b.media_id]);
    await unstageAttachment(db, a.media_id);
    expect((await stagedAttachments(db, 'L')).map((r) => r.media_id)).toEqual([b.media_id]);
    expect(await db.mediaBlobs.get(a.media_id)).toBeUndefined();
  });
});

describe('sending with attachments', () => {
  it('uploads each file, then one message.send names them all; the gateway has the same bytes and the app keeps them under the gateway ids', async () => {
    const { gw, proxy, db, c, lane } = await setup();
    const sends: unknown[] = [];
    proxy.taps.toGateway = (data, isBinary) => {
      if (!isBinary) {
        const f = parseFrame(data.toString());
        if (f?.type === 'message.send') sends.push(f.payload);
      }
      return data;
    };
    const one = new Uint8Array(randomBytes(300 * 1024));
    const two = new Uint8Array(randomBytes(1000));
    const a = await stageAttachment(db, new Blob([one], { type: 'image/png' }), { lane, filename: 'one.png' });
    const b = await stageAttachment(db, new Blob([two], { type: 'text/plain' }), { lane, filename: 'two.txt' });
    const clientId = await c.send(lane, 'two files', { attachments: [a.media_id, b.media_id] });
    // Shown at once in the pending bubble, no longer offered to the composer.
    const pending = await db.messages.get(localMessageId(clientId));
    expect(pending?.media?.map((m) => m.media_id)).toEqual([a.media_id, b.media_id]);
    expect(await stagedAttachments(db, lane)).toEqual([]);

    const stored = await until(
      () => gw.gateway.store.messages(lane).find((m) => m.role === 'user' && m.text === 'two files'),
      'delivered',
      15_000,
    );
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ text: 'two files', media_refs: [a.media_id, b.media_id] });
    const records = stored.media!.map((m) => gw.gateway.store.media.get(m.media_id)!);
    expect(records.map((r) => [r.ref, r.kind, r.sha256])).toEqual([
      [a.media_id, 'image', sha(one)],
      [b.media_id, 'document', sha(two)],
    ]);

    await until(
      async () =>
        (await userMessages(db, lane)).some((m) => m.client_id === clientId && !m.message_id.startsWith('local:')),
      'echo',
    );
    await settleSentAttachments(db);
    const [first, second] = stored.media!;
    expect(await db.media.get(a.media_id)).toBeUndefined();
    expect(await db.media.get(first!.media_id)).toMatchObject({
      state: 'ready',
      kind: 'image',
      message_id: stored.message_id,
    });
    const bytes = new Uint8Array(await (await db.mediaBlobs.get(first!.media_id))!.blob.arrayBuffer());
    expect(sha(bytes)).toBe(sha(one));
    expect(await db.media.get(second!.media_id)).toMatchObject({ state: 'ready', filename: 'two.txt' });
    expect(await db.media.where('state').equals('local').count()).toBe(0);
  });

  it('a gateway that names the upload by the app’s own media_ref (media_id == media_ref): the file stays, ready, under that id', async () => {
    const { gw, db, c, lane } = await setup({ quirks: { mediaIdIsRef: true } });
    const one = new Uint8Array(randomBytes(2000));
    const a = await stageAttachment(db, new Blob([one], { type: 'image/png' }), { lane, filename: 'mine.png' });
    const clientId = await c.send(lane, 'my picture', { attachments: [a.media_id] });
    const stored = await until(
      () => gw.gateway.store.messages(lane).find((m) => m.role === 'user' && m.text === 'my picture'),
      'delivered',
      15_000,
    );
    expect(stored.media?.[0]?.media_id).toBe(a.media_id);
    await until(
      async () =>
        (await userMessages(db, lane)).some((m) => m.client_id === clientId && !m.message_id.startsWith('local:')),
      'echo',
    );
    await settleSentAttachments(db);
    expect(await db.media.get(a.media_id)).toMatchObject({ state: 'ready', message_id: stored.message_id });
    const blob = await db.mediaBlobs.get(a.media_id);
    expect(blob && sha(new Uint8Array(await blob.blob.arrayBuffer()))).toBe(sha(one));
    // Settling again (another tab, a reload) changes nothing.
    await settleSentAttachments(db);
    expect(await db.media.get(a.media_id)).toMatchObject({ state: 'ready' });
  });

  it('an upload whose signal aborts sends no more bytes and no end, and rejects with the reason', async () => {
    const { gw, proxy, c } = await setup();
    const cancel = new AbortController();
    let binary = 0;
    let ended = false;
    proxy.taps.toGateway = (data, isBinary) => {
      if (isBinary && ++binary === 2) cancel.abort(new Error('cancelled by the person'));
      if (!isBinary && data.includes('"media.upload.end"')) ended = true;
      return data;
    };
    const upload = c.session()!.upload(new Blob([new Uint8Array(randomBytes(6 * MiB))]), {
      kind: 'document',
      filename: 'big.bin',
      signal: cancel.signal,
    });
    await expect(upload).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(ended).toBe(false);
    expect(gw.gateway.store.media.list()).toHaveLength(0);
  });

  it('cancelling (discarding) a send while its file uploads sends nothing, and its files are dropped', async () => {
    const { gw, proxy, db, c, lane } = await setup();
    let binary = 0;
    let clientId = '';
    proxy.taps.toGateway = (data, isBinary) => {
      if (isBinary && ++binary === 2) void c.discard(clientId);
      return data;
    };
    const file = await stageAttachment(db, new Blob([new Uint8Array(randomBytes(6 * MiB))]), {
      lane,
      filename: 'big.bin',
    });
    clientId = await c.send(lane, 'never', { attachments: [file.media_id] });
    await until(async () => (await db.outbox.count()) === 0 && binary >= 2, 'discarded');
    await c.session()!.sender.idle();
    await new Promise((r) => setTimeout(r, 300));
    expect(gw.gateway.store.messages(lane).some((m) => m.text === 'never')).toBe(false);
    expect(await db.messages.get(localMessageId(clientId))).toBeUndefined();
    await settleSentAttachments(db);
    expect(await db.media.count()).toBe(0);
    expect(await db.mediaBlobs.count()).toBe(0);
  });

  it('cancelling while the upload waits for its ack ends the wait at once; the next message goes out', async () => {
    const { gw, proxy, db, c, lane } = await setup();
    let clientId = '';
    proxy.taps.toClient = (data, isBinary) => {
      if (!isBinary && data.includes('"media.upload.ack"')) {
        void c.discard(clientId);
        return null; // the ack never arrives
      }
      return data;
    };
    const file = await stageAttachment(db, new Blob([new Uint8Array(1000)]), { lane, filename: 'a.bin' });
    clientId = await c.send(lane, 'cancelled', { attachments: [file.media_id] });
    await until(async () => (await db.outbox.count()) === 0, 'discarded');
    const started = Date.now();
    await c.send(lane, 'next one');
    await until(() => gw.gateway.store.messages(lane).find((m) => m.text === 'next one'), 'next delivered', 10_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(gw.gateway.store.messages(lane).some((m) => m.text === 'cancelled')).toBe(false);
  });

  it("the gateway's media_too_large fails the bubble with the file's size and the limit in words", async () => {
    const { db, c, lane } = await setup({ maxMediaBytes: MiB });
    const file = await stageAttachment(db, new Blob([new Uint8Array(2 * MiB)]), { lane, filename: 'two.bin' });
    const clientId = await c.send(lane, 'too big', { attachments: [file.media_id] });
    const bubble = await until(async () => {
      const m = await db.messages.get(localMessageId(clientId));
      return m?.status === 'failed' ? m : undefined;
    }, 'failed');
    expect(bubble.error).toBe('“two.bin” is 2 MB; the gateway accepts files of at most 1 MB.');
    // The file stays with the message for a retry.
    expect(await db.mediaBlobs.get(file.media_id)).toBeDefined();
  });

  it('a connection dropped mid-upload: after reconnecting the upload starts over and the message is delivered once', async () => {
    const { gw, proxy, db, c, lane } = await setup();
    let binary = 0;
    proxy.taps.toGateway = (data, isBinary) => {
      if (isBinary && ++binary === 3) return 'cut-before';
      return data;
    };
    const bytes = new Uint8Array(randomBytes(2 * MiB));
    const file = await stageAttachment(db, new Blob([bytes], { type: 'video/mp4' }), { lane, filename: 'clip.mp4' });
    await c.send(lane, 'after the cut', { attachments: [file.media_id] });
    await until(() => binary >= 3, 'cut');
    proxy.taps.toGateway = undefined;
    c.session()!.connection.wake();
    const stored = await until(
      () => gw.gateway.store.messages(lane).find((m) => m.text === 'after the cut'),
      'delivered',
      15_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(gw.gateway.store.messages(lane).filter((m) => m.text === 'after the cut')).toHaveLength(1);
    const records = gw.gateway.store.media.list().filter((r) => r.ref === file.media_id);
    expect(records).toHaveLength(1);
    expect(records[0]!.sha256).toBe(sha(bytes));
    expect(stored.media![0]!.media_id).toBe(records[0]!.media_id);
  });

  it('a send whose attachment is gone is refused before anything is queued', async () => {
    const db = freshDb();
    await expect(
      queueSendWithMedia(db, { client_id: 'c1', lane: 'L', chat_id: 'L', text: 'x', attachments: ['missing'] }),
    ).rejects.toBeInstanceOf(AttachmentRefusedError);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.messages.count()).toBe(0);
  });
});
