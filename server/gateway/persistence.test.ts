import { appendFileSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

// Each test starts its gateway itself (restart()), on a fresh data dir kept across its restarts.
const fixture = useGateway({ token: 'persist-token', streamDelayMs: 0, tempDataDir: true, startBeforeEach: false });

/** A device that can be woken by ntfy (its push target is part of what persists). */
const device = (id: string) => fixture.device(id, { caps: { push: 'ntfy' }, extra: { ntfy_topic: 'topic-' + id } });

describe('persistence', () => {
  it('conversations, channels, devices with outboxes, and media survive close and reopen', async () => {
    const g1 = await fixture.restart();
    const b1 = await device('dev-b');
    await b1.close();
    const a = await device('dev-a');
    const { echo, stop } = await a.chat('remember me', { chat_id: 'web:default' }, { client_id: 'keep-1' });
    const ch = await a.request('channel.create', { name: 'Kept', kind: 'channel' });
    await a.request('channel.favorite', { favorite: true }, { chat_id: ch.payload.chat_id });
    const bytes = Buffer.from('persistent bytes');
    const ack = await a.upload(bytes, { ref: 'ref-p', kind: 'document', mime: 'text/plain', filename: 'note.txt' });
    expect(ack.type).toBe('media.upload.ack');
    const mediaId = g1.gateway.store.media.byRef('ref-p')!.media_id;
    const cursorB = g1.gateway.store.cursor('dev-b');
    const messagesBefore = g1.gateway.store.messages('web:default');
    await a.close();

    const g2 = await fixture.restart();
    expect(g2.gateway.store.messages('web:default')).toEqual(messagesBefore);
    expect(g2.gateway.store.channels.get(ch.payload.chat_id)).toMatchObject({ name: 'Kept', favorite: true });
    expect(g2.gateway.store.cursor('dev-b')).toBe(cursorB);
    expect(g2.gateway.store.pushTargets().find((t) => t.device_id === 'dev-b')).toMatchObject({
      mode: 'ntfy',
      ntfy_topic: 'topic-dev-b',
    });
    expect(g2.gateway.store.mediaBytes(mediaId)!.equals(bytes)).toBe(true);

    // The offline device catches up from its outbox after the restart.
    const b = await device('dev-b');
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
    const g1 = await fixture.restart();
    const a = await device('dev-a');
    await a.chat('journal', { chat_id: 'web:default' });
    const cursor = g1.gateway.store.cursor('dev-a');
    const outbox = g1.gateway.store.devices.get('dev-a')!.outbox;
    await a.close();
    await fixture.stop();
    const [journal] = readdirSync(join(fixture.dataDir, 'outbox'));
    appendFileSync(join(fixture.dataDir, 'outbox', journal), `${cursor + 1} {"v":1,"type":"mess`);
    const g2 = await fixture.restart({ outboxLimit: 3 });
    expect(g2.gateway.store.cursor('dev-a')).toBe(cursor);
    expect(g2.gateway.store.devices.get('dev-a')!.outbox).toEqual(outbox.slice(-3));
    const b = await device('dev-a');
    expect((await b.request('sync', { cursor: 0 })).payload.cursor).toBe(cursor);
    // Frames appended after the repair read back whole after another restart.
    await b.chat('after repair', { chat_id: 'web:default' });
    const newest = g2.gateway.store.cursor('dev-a');
    await b.close();
    const g3 = await fixture.restart({ outboxLimit: 3 });
    expect(g3.gateway.store.cursor('dev-a')).toBe(newest);
    expect(g3.gateway.store.devices.get('dev-a')!.outbox.map((e) => e.cursor)).toEqual([
      newest - 2,
      newest - 1,
      newest,
    ]);
  });

  it('an acknowledging sync shrinks the journal on disk; the cursor survives a restart with it empty', async () => {
    const g1 = await fixture.restart();
    const b = await device('dev-b');
    await b.close();
    const a = await device('dev-a');
    await a.chat('for the journal', { chat_id: 'web:default' });
    await a.chat('and more', { chat_id: 'web:default' });
    const journal = join(
      fixture.dataDir,
      'outbox',
      readdirSync(join(fixture.dataDir, 'outbox')).find((n) =>
        readFileSync(join(fixture.dataDir, 'outbox', n), 'utf8').includes('"read.receipt"'),
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
    expect(readdirSync(join(fixture.dataDir, 'outbox')).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // The away device's journal is untouched.
    expect(g1.gateway.store.devices.get('dev-b')!.outbox).toHaveLength(cursor - 2); // all but the sender's two read receipts
    await a.close();
    const g2 = await fixture.restart();
    expect(g2.gateway.store.cursor('dev-a')).toBe(cursor);
    expect(g2.gateway.store.devices.get('dev-a')!.outbox).toEqual([]);
    const a2 = await device('dev-a');
    const from = a2.mark();
    await a2.chat('numbering goes on', { chat_id: 'web:default' });
    expect(a2.frames.slice(from).find((f) => f.cursor !== undefined)?.cursor).toBe(cursor + 1);
  });

  it('stores media under gateway-made names only', async () => {
    const g = await fixture.restart();
    const a = await device('dev-a');
    const bytes = Buffer.from('x');
    const ack = await a.upload(bytes, {
      ref: '../../../evil',
      kind: 'document',
      mime: 'text/plain',
      filename: '../../../../tmp/evil.sh',
    });
    expect(ack.type).toBe('media.upload.ack');
    const files = readdirSync(join(fixture.dataDir, 'media'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^med_[0-9a-f]{32}\.bin$/);
    expect(g.gateway.store.media.byRef('../../../evil')!.filename).toBe('evil.sh');
  });

  it('a reply streaming when the gateway died is closed after the restart', async () => {
    await fixture.restart();
    const a = await device('dev-a');
    const from = a.mark();
    await a.request('message.send', { text: '/long', client_id: 'crash-1' }, { chat_id: 'web:default' });
    const started = await a.waitType('message.start', { from });
    await a.waitType('message.update', { from });
    // A second gateway reads the directory as a crash would have left it (the first never closed).
    const g2 = await fixture.startAnother();
    const stored = g2.gateway.store.messages('web:default').find((m) => m.message_id === started.payload.message_id);
    expect(stored).toMatchObject({ role: 'assistant', text: expect.stringContaining('interrupted') });
    const outbox = g2.gateway.store.devices.get('dev-a')!.outbox.map((e) => JSON.parse(e.frame));
    const stop = outbox.find((f) => f.type === 'message.stop');
    expect(stop.payload.message_id).toBe(started.payload.message_id);
    expect(outbox.at(-1).type).toBe('agent.idle');
  });

  it('starts with defaults when a state file is corrupt, and says so in the log', async () => {
    writeFileSync(join(fixture.dataDir, 'channels.json'), '{not json');
    await fixture.restart();
    const a = await device('dev-a');
    expect((await a.request('channel.list')).payload.channels[0]).toMatchObject({
      chat_id: 'web:default',
      name: 'General',
    });
    expect(fixture.logs.some((l) => l.includes('channels.json'))).toBe(true);
  });
});
