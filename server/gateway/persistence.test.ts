import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, type StandaloneGateway } from './standalone';
import { TestClient } from './testclient';

const token = 'persist-token';
let dir: string;
const running: StandaloneGateway[] = [];
const clients: TestClient[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'iris-gw-'));
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const g of running.splice(0)) await g.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(log?: (l: string) => void): Promise<StandaloneGateway> {
  const g = await startGateway({ token, dataDir: dir, streamDelayMs: 0, log });
  running.push(g);
  return g;
}

async function device(g: StandaloneGateway, id: string): Promise<TestClient> {
  const c = await TestClient.paired(g.url, {
    token,
    device_id: id,
    caps: { push: 'ntfy' },
    extra: { ntfy_topic: 'topic-' + id },
  });
  clients.push(c);
  return c;
}

describe('persistence', () => {
  it('conversations, channels, devices with outboxes, and media survive close and reopen', async () => {
    const g1 = await start();
    const b1 = await device(g1, 'dev-b');
    await b1.close();
    const a = await device(g1, 'dev-a');
    const { echo, stop } = await a.chat('remember me', { chat_id: 'web:default' }, { client_id: 'keep-1' });
    const ch = await a.request('channel.create', { name: 'Kept', kind: 'channel' });
    await a.request('channel.favorite', { favorite: true }, { chat_id: ch.payload.chat_id });
    const bytes = Buffer.from('persistent bytes');
    const upId = a.takeId();
    const ackP = a.waitFor((f) => f.id === upId);
    a.send(
      'media.upload.start',
      { media_ref: 'ref-p', kind: 'document', mime: 'text/plain', size: bytes.length, filename: 'note.txt' },
      { id: upId },
    );
    a.sendRaw(bytes, true);
    a.send('media.upload.end', { media_ref: 'ref-p', sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await ackP).type).toBe('media.upload.ack');
    const mediaId = g1.gateway.store.media.byRef('ref-p')!.media_id;
    const cursorB = g1.gateway.store.cursor('dev-b');
    const messagesBefore = g1.gateway.store.messages('web:default');
    await a.close();
    await g1.close();
    running.splice(0);

    const g2 = await start();
    expect(g2.gateway.store.messages('web:default')).toEqual(messagesBefore);
    expect(g2.gateway.store.channels.get(ch.payload.chat_id)).toMatchObject({ name: 'Kept', favorite: true });
    expect(g2.gateway.store.cursor('dev-b')).toBe(cursorB);
    expect(g2.gateway.store.pushTargets().find((t) => t.device_id === 'dev-b')).toMatchObject({
      mode: 'ntfy',
      ntfy_topic: 'topic-dev-b',
    });
    expect(g2.gateway.store.mediaBytes(mediaId)!.equals(bytes)).toBe(true);

    // The offline device catches up from its outbox after the restart.
    const b = await device(g2, 'dev-b');
    const from = b.mark();
    await b.request('sync', { cursor: 0 });
    const stops = b.ofType('message.stop', from);
    expect(stops.map((f) => f.payload.final_text)).toEqual([stop!.payload.final_text]);
    // client_id de-duplication still holds across the restart.
    const again = await b.request(
      'message.send',
      { text: 'remember me', client_id: 'keep-1' },
      { chat_id: 'web:default' },
    );
    expect(again.payload.message_id).toBe(echo.payload.message_id);
    expect(g2.gateway.store.messages('web:default')).toHaveLength(2);
    // Media pulls after the restart.
    const before = b.binaries.length;
    expect((await b.request('media.pull', { media_id: mediaId })).type).toBe('media.pull.end');
    expect(Buffer.concat(b.binaries.slice(before)).equals(bytes)).toBe(true);
    // Cursors keep increasing after the restart.
    await b.chat('more', { chat_id: 'web:default' });
    expect(g2.gateway.store.cursor('dev-b')).toBeGreaterThan(cursorB);
  });

  it('keeps each outbox as a journal: a torn last line is skipped, the cursor survives, the limit holds', async () => {
    const g1 = await start();
    const a = await device(g1, 'dev-a');
    await a.chat('journal', { chat_id: 'web:default' });
    const cursor = g1.gateway.store.cursor('dev-a');
    const outbox = g1.gateway.store.devices.get('dev-a')!.outbox;
    await a.close();
    await g1.close();
    running.splice(0);
    const [journal] = readdirSync(join(dir, 'outbox'));
    appendFileSync(join(dir, 'outbox', journal), `${cursor + 1} {"v":1,"type":"mess`);
    const g2 = await startGateway({ token, dataDir: dir, streamDelayMs: 0, outboxLimit: 3 });
    running.push(g2);
    expect(g2.gateway.store.cursor('dev-a')).toBe(cursor);
    expect(g2.gateway.store.devices.get('dev-a')!.outbox).toEqual(outbox.slice(-3));
    const b = await device(g2, 'dev-a');
    expect((await b.request('sync', { cursor: 0 })).payload.cursor).toBe(cursor);
    // Frames appended after the repair read back whole after another restart.
    await b.chat('after repair', { chat_id: 'web:default' });
    const newest = g2.gateway.store.cursor('dev-a');
    await b.close();
    await g2.close();
    running.splice(0);
    const g3 = await startGateway({ token, dataDir: dir, streamDelayMs: 0, outboxLimit: 3 });
    running.push(g3);
    expect(g3.gateway.store.cursor('dev-a')).toBe(newest);
    expect(g3.gateway.store.devices.get('dev-a')!.outbox.map((e) => e.cursor)).toEqual([
      newest - 2,
      newest - 1,
      newest,
    ]);
  });

  it('an acknowledging sync shrinks the journal on disk; the cursor survives a restart with it empty', async () => {
    const g1 = await start();
    const b = await device(g1, 'dev-b');
    await b.close();
    const a = await device(g1, 'dev-a');
    await a.chat('for the journal', { chat_id: 'web:default' });
    await a.chat('and more', { chat_id: 'web:default' });
    const journal = join(
      dir,
      'outbox',
      readdirSync(join(dir, 'outbox')).find((n) =>
        readFileSync(join(dir, 'outbox', n), 'utf8').includes('"read.receipt"'),
      )!,
    );
    const lines = () => readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    const cursor = g1.gateway.store.cursor('dev-a');
    expect(lines()).toHaveLength(cursor);
    const sizeBefore = statSync(journal).size;
    // Acknowledging up to a middle cursor keeps only what comes after it, on disk too (sync.done waits for it).
    const mid = cursor - 3;
    await a.request('sync', { cursor: mid });
    expect(lines().map((l) => Number(l.split(' ')[0]))).toEqual([mid + 1, mid + 2, mid + 3]);
    expect(statSync(journal).size).toBeLessThan(sizeBefore / 2);
    await a.request('sync', { cursor });
    expect(lines()).toEqual([]);
    expect(readdirSync(join(dir, 'outbox')).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // The away device's journal is untouched.
    expect(g1.gateway.store.devices.get('dev-b')!.outbox).toHaveLength(cursor - 2); // all but the sender's two read receipts
    await a.close();
    await g1.close();
    running.splice(0);
    const g2 = await start();
    expect(g2.gateway.store.cursor('dev-a')).toBe(cursor);
    expect(g2.gateway.store.devices.get('dev-a')!.outbox).toEqual([]);
    const a2 = await device(g2, 'dev-a');
    const from = a2.mark();
    await a2.chat('numbering goes on', { chat_id: 'web:default' });
    expect(a2.frames.slice(from).find((f) => f.cursor !== undefined)?.cursor).toBe(cursor + 1);
  });

  it('stores media under gateway-made names only', async () => {
    const g = await start();
    const a = await device(g, 'dev-a');
    const bytes = Buffer.from('x');
    const id = a.takeId();
    const ack = a.waitFor((f) => f.id === id);
    a.send(
      'media.upload.start',
      {
        media_ref: '../../../evil',
        kind: 'document',
        mime: 'text/plain',
        size: 1,
        filename: '../../../../tmp/evil.sh',
      },
      { id },
    );
    a.sendRaw(bytes, true);
    a.send('media.upload.end', {
      media_ref: '../../../evil',
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect((await ack).type).toBe('media.upload.ack');
    const files = readdirSync(join(dir, 'media'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^med_[0-9a-f]{32}\.bin$/);
    expect(g.gateway.store.media.byRef('../../../evil')!.filename).toBe('evil.sh');
  });

  it('a reply streaming when the gateway died is closed after the restart', async () => {
    const g1 = await start();
    const a = await device(g1, 'dev-a');
    const from = a.mark();
    await a.request('message.send', { text: '/long', client_id: 'crash-1' }, { chat_id: 'web:default' });
    const started = await a.waitType('message.start', { from });
    await a.waitType('message.update', { from });
    // A second gateway reads the directory as a crash would have left it (the first never closed).
    const g2 = await startGateway({ token, dataDir: dir, streamDelayMs: 0 });
    try {
      const stored = g2.gateway.store.messages('web:default').find((m) => m.message_id === started.payload.message_id);
      expect(stored).toMatchObject({ role: 'assistant', text: expect.stringContaining('interrupted') });
      const outbox = g2.gateway.store.devices.get('dev-a')!.outbox.map((e) => JSON.parse(e.frame));
      const stop = outbox.find((f) => f.type === 'message.stop');
      expect(stop.payload.message_id).toBe(started.payload.message_id);
      expect(outbox.at(-1).type).toBe('agent.idle');
    } finally {
      await g2.close();
    }
  });

  it('starts with defaults when a state file is corrupt, and says so in the log', async () => {
    writeFileSync(join(dir, 'channels.json'), '{not json');
    const logs: string[] = [];
    const g = await start((l) => logs.push(l));
    const a = await device(g, 'dev-a');
    expect((await a.request('channel.list')).payload.channels[0]).toMatchObject({
      chat_id: 'web:default',
      name: 'General',
    });
    expect(logs.some((l) => l.includes('channels.json'))).toBe(true);
  });
});
