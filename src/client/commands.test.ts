// The commands the UI calls, each through the real gateway, checked in the DB (or the answer).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { laneMessages } from '../store/models/messages';
import { ProtocolError } from '../net/errors';
import { parseFrame } from '../protocol';
import { GatewayProxy } from '../testing/proxy';
import { freshDb } from '../testing/db';
import { client, defaultLane, pairedClient, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';
import type { StandaloneGateway } from '../../server/gateway/standalone';
import type { IrisDB } from '../store/db';
import type { IrisClient } from './index';
import { normalizeGatewayUrl } from './index';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway();
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function online(
  opts: Parameters<typeof fixture.restart>[0] = {},
): Promise<{ db: IrisDB; c: IrisClient; gw: StandaloneGateway; lane: string }> {
  const gw = await fixture.restart(opts);
  const db = freshDb();
  const c = await pairedClient(db, gw.url);
  cleanup.push(() => c.stop());
  return { db, c, gw, lane: await defaultLane(db) };
}

const finalReply = (db: IrisDB, lane: string, n = 1) =>
  until(
    async () =>
      (await laneMessages(db, lane)).filter((m) => m.role === 'assistant' && m.status === 'final').length >= n,
    'reply',
    10_000,
  );

describe('commands', () => {
  it('pair stores the gateway, token and a device id; forget closes and deletes everything but the device’s own theme and name', async () => {
    const { db, c, gw } = await online();
    await db.settings.bulkPut([
      { key: 'theme', value: 'dark' },
      { key: 'deviceName', value: 'Kitchen tablet' },
    ]);
    expect((await db.settings.get('gatewayUrl'))?.value).toBe(gw.url);
    expect((await db.settings.get('deviceId'))?.value).toMatch(/^[0-9a-f-]{36}$/);
    expect(gw.gateway.connectionCount()).toBe(1);
    expect(await db.channels.count()).toBeGreaterThan(0);
    await c.forget();
    await until(() => gw.gateway.connectionCount() === 0, 'socket closed');
    expect(c.state()).toBe('offline');
    for (const table of db.tables) if (table.name !== 'settings') expect(await table.count()).toBe(0);
    expect(await db.settings.toArray()).toEqual([
      { key: 'deviceName', value: 'Kitchen tablet' },
      { key: 'theme', value: 'dark' },
    ]);
  });

  it('pair refuses a URL that is not ws(s) and a token in the URL', () => {
    expect(() => normalizeGatewayUrl('ftp://x')).toThrow(/wss:\/\//);
    expect(() => normalizeGatewayUrl('not a url')).toThrow(/valid address/);
    expect(() => normalizeGatewayUrl('wss://user:secret@host/ws')).toThrow(/token field/);
    expect(normalizeGatewayUrl('https://host.example/ws')).toBe('wss://host.example/ws');
  });

  it('channel commands change the directory through the gateway', async () => {
    const { db, c, gw } = await online();
    const made = await c.createChannel('Plans', 'channel');
    expect(await db.channels.get(made.chat_id)).toMatchObject({ name: 'Plans', kind: 'channel' });
    await c.renameChannel(made.chat_id, 'Plans 2026');
    await c.favorite(made.chat_id, true);
    await c.setIcon(made.chat_id, '🚀', '#ff8800');
    expect(await db.channels.get(made.chat_id)).toMatchObject({
      name: 'Plans 2026',
      favorite: true,
      icon: '🚀',
      color: '#ff8800',
    });
    await c.setDefault(made.chat_id);
    expect((await db.channels.toArray()).filter((ch) => ch.is_default).map((ch) => ch.chat_id)).toEqual([made.chat_id]);
    const thread = await c.createChannel('Sub', 'thread', made.chat_id);
    expect(await db.channels.get(thread.chat_id)).toMatchObject({ kind: 'thread', parent_chat_id: made.chat_id });
    const other = await c.createChannel('Old stuff', 'channel');
    await c.archiveChannel(other.chat_id);
    expect((await db.channels.get(other.chat_id))?.archived).toBe(true);
    expect(gw.gateway.store.channels.get(other.chat_id)?.archived).toBe(true);
    // An error answer rejects with the code and the words.
    const err = await c.renameChannel('web:nope', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('not_found');
  });

  it('a thread lane is addressed as chat_id = its channel, thread_id = the thread', async () => {
    const { db, c, gw } = await online();
    const channel = await c.createChannel('Topic', 'channel');
    const thread = await c.createChannel('Detail', 'thread', channel.chat_id);
    await c.send(thread.chat_id, 'in a thread');
    await finalReply(db, thread.chat_id);
    expect(gw.gateway.store.messages(thread.chat_id).map((m) => m.text)[0]).toBe('in a thread');
    expect(gw.gateway.store.messages(channel.chat_id)).toHaveLength(0);
  });

  it('search, complete (online and from the cached catalog offline), history paging', async () => {
    const { db, c, lane } = await online();
    for (let i = 1; i <= 3; i++) {
      await c.send(lane, `needle number ${i}`);
      await finalReply(db, lane, i);
    }
    const hits = await c.search('needle', 'chat', lane);
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(hits.every((h) => h.chat_id === lane)).toBe(true);
    expect((await c.complete('/st')).map((m) => m.name)).toEqual(['stream']);
    // The catalog was cached after sync; offline, completion falls back to it.
    await until(
      async () => ((await db.settings.get('commands'))?.value as unknown[] | undefined)?.length,
      'catalog cached',
    );
    await fixture.stop();
    await until(() => c.state() !== 'online', 'offline');
    expect((await c.complete('/lo')).map((m) => m.name)).toEqual(['long']);
  });

  it('loadOlder fetches pages before the oldest stored message until there are no more', async () => {
    const { db, c, gw, lane } = await online();
    for (let i = 1; i <= 4; i++) {
      await c.send(lane, `page test ${i}`);
      await finalReply(db, lane, i);
    }
    // A second device starts with an empty cache and pages back with a small page size.
    const db2 = freshDb();
    const other = await pairedClient(db2, gw.url);
    cleanup.push(() => other.stop());
    const session = other.session()!;
    (session as unknown as { opts: { historyLimit: number } }).opts.historyLimit = 3;
    other.setActiveLane(lane);
    await until(async () => (await laneMessages(db2, lane)).length === 3, 'newest page');
    let more = await other.loadOlder(lane);
    expect(more.hasMore).toBe(true);
    expect(await laneMessages(db2, lane)).toHaveLength(6);
    more = await other.loadOlder(lane);
    expect(more.hasMore).toBe(false);
    const all = gw.gateway.store.messages(lane).map((m) => m.message_id);
    expect((await laneMessages(db2, lane)).map((m) => m.message_id)).toEqual(all);
    expect(await other.loadOlder(lane)).toEqual({ hasMore: false }); // no request once the end is known
  });

  it('a history page the gateway refuses or leaves unanswered is marked on the lane until a page lands; a lost connection is not', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    // What the gateway does with the next history request: refuse it, leave it unanswered, or answer.
    let mode: 'refuse' | 'silent' | 'answer' = 'refuse';
    proxy.taps.toGateway = (data, isBinary, relay) => {
      const f = isBinary ? null : parseFrame(data.toString());
      if (f?.type !== 'history' || mode === 'answer') return data;
      if (mode === 'refuse') {
        const error = { v: 1, type: 'error', id: f.id, payload: { code: 'internal', message: 'The store is down.' } };
        relay.client.send(JSON.stringify(error));
      }
      return null;
    };
    const db = freshDb();
    const c = await pairedClient(db, proxy.url, { requestTimeoutMs: 1000 });
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    const failed = async () => (await db.lanes.get(lane))?.historyFailed;

    await expect(c.loadNewest(lane)).rejects.toThrow('The store is down.');
    expect(await failed()).toBe(true);
    mode = 'answer';
    await c.loadNewest(lane);
    expect(await failed()).toBeUndefined();

    mode = 'silent';
    await expect(c.loadNewest(lane)).rejects.toThrow('did not answer');
    expect(await failed()).toBe(true);
    mode = 'answer';
    await c.loadNewest(lane);
    expect(await failed()).toBeUndefined();

    // Offline: the banner says so; the lane's history has not failed.
    await fixture.stop();
    await until(() => c.state() !== 'online', 'offline');
    await expect(c.loadNewest(lane)).rejects.toThrow();
    expect(await failed()).toBeUndefined();
  });

  it('markRead sets the read mark and the other device clears its unread count for the lane', async () => {
    const { db, c, gw, lane } = await online();
    const db2 = freshDb();
    const other = await pairedClient(db2, gw.url);
    cleanup.push(() => other.stop());
    await c.send(lane, 'read me');
    await finalReply(db, lane);
    await finalReply(db2, lane);
    await c.markRead(lane);
    const newest = gw.gateway.store.messages(lane).at(-1)!;
    expect((await db.lanes.get(lane))?.readMessageId).toBe(newest.message_id);
    await until(
      async () => (await db2.lanes.get(lane))?.readMessageId === newest.message_id,
      'mark relayed to the other device',
    );
    expect(gw.gateway.store.conversations.readReceipt(lane)).toBe(newest.message_id);
  });

  it('deleteMessages removes them on the gateway and here', async () => {
    const { db, c, gw, lane } = await online();
    await c.send(lane, 'delete me');
    await finalReply(db, lane);
    const ids = gw.gateway.store.messages(lane).map((m) => m.message_id);
    await c.deleteMessages(lane, ids);
    expect(await laneMessages(db, lane)).toHaveLength(0);
    expect(gw.gateway.store.messages(lane)).toHaveLength(0);
  });

  it('stop and steer a running turn; answer a picker once', async () => {
    // A reply that lasts about a second, as a person has time to steer and stop. At 1 ms a step the
    // whole /long reply took ~60 ms: whether the steer's answer (which settles once it is stored, behind
    // the frames queued before it) came back before the last line depended on how fast the store wrote.
    const { db, c, gw, lane } = await online({ streamDelayMs: 20 });
    await c.send(lane, '/long');
    await until(async () => (await laneMessages(db, lane)).some((m) => m.status === 'streaming'), 'streaming');
    await c.steer(lane, 'shorter please');
    // The demo writes the steer into the reply at its next step: stop once the person sees it there.
    await until(
      async () => (await laneMessages(db, lane)).some((m) => m.status === 'streaming' && m.text.includes('Steer')),
      'steered',
    );
    await c.stopAgent(lane);
    await finalReply(db, lane);
    const reply = gw.gateway.store.messages(lane).find((m) => m.role === 'assistant')!;
    expect(reply.text).toContain('Steer');
    expect(reply.text).not.toContain('40. Line 40');
    // Nothing running: steering is refused in words.
    const err = await c.steer(lane, 'too late').catch((e: unknown) => e);
    expect((err as ProtocolError).code).toBe('not_found');
    // Words meant for a reply that has ended go as a plain message.
    await c.steerOrSend(lane, 'after the end');
    await until(
      () => gw.gateway.store.messages(lane).some((m) => m.role === 'user' && m.text === 'after the end'),
      'sent instead',
    );
    await finalReply(db, lane, 2);

    await c.send(lane, '/confirm');
    const picker = await until(async () => (await db.pickers.toArray()).find((p) => p.state === 'open'), 'picker');
    await c.selectPicker(picker.picker_id, 'yes');
    expect((await db.pickers.get(picker.picker_id))?.state).not.toBe('open');
    await expect(c.selectPicker(picker.picker_id, 'no')).rejects.toThrow(/already answered/);
    await finalReply(db, lane, 3);
  });

  it('commands fail at once when offline, but send still queues', async () => {
    const db = freshDb();
    const c = client(db);
    cleanup.push(() => c.stop());
    await c.start();
    await expect(c.search('x', 'all')).rejects.toThrow(/paired|connected/i);
    await db.channels.put({ chat_id: 'web:default', name: 'General', kind: 'default', order: 0 });
    await c.send('web:default', 'later');
    expect((await laneMessages(db, 'web:default'))[0]).toMatchObject({ text: 'later', status: 'pending' });
  });
});
