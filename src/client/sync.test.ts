// Sync after reconnect (spec README §8), update coalescing under a real burst, hostile frames and
// a refused token, all against the reference gateway.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol';
import { applyFrame, applyFrames } from '../store/reducer';
import { laneMessages } from '../store/models/messages';
import type { Reducer } from '../net/session';
import { GatewayProxy } from '../testing/proxy';
import { dump, freshDb } from '../testing/db';
import { client, defaultLane, pairedClient, TOKEN, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway();
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('sync', () => {
  it('a second device offline while the first chats gets every final message and channel event on reconnect', async () => {
    const gw = await fixture.restart();
    const dbA = freshDb();
    const dbB = freshDb();
    const a = await pairedClient(dbA, gw.url);
    cleanup.push(() => a.stop());
    const b = await pairedClient(dbB, gw.url);
    expect(await dbA.settings.get('deviceId')).not.toEqual(await dbB.settings.get('deviceId'));
    const lane = await defaultLane(dbA);
    await b.stop(); // B goes offline

    for (const text of ['first while B sleeps', 'second while B sleeps']) {
      await a.send(lane, text);
      await until(
        async () =>
          (await laneMessages(dbA, lane)).filter((m) => m.role === 'assistant' && m.status === 'final').length ===
          (text.startsWith('first') ? 1 : 2),
        'reply',
      );
    }
    const created = await a.createChannel('Made while B slept', 'channel');
    await a.renameChannel(created.chat_id, 'Renamed while B slept');
    const thread = await a.createChannel('A thread', 'thread', created.chat_id);
    await a.send(thread.chat_id, 'in the thread');
    await until(
      async () => (await laneMessages(dbA, thread.chat_id)).some((m) => m.role === 'assistant' && m.status === 'final'),
      'thread reply',
    );
    await a.markRead(lane);

    // B comes back. No lane is on screen, so nothing but the replay can bring these.
    await b.start();
    await until(() => b.session()?.isSynced, 'B synced');
    const expectLane = async (l: string) => {
      const want = gw.gateway.store.messages(l).map((m) => [m.message_id, m.role, m.text]);
      await until(async () => (await laneMessages(dbB, l)).length === want.length, `B has ${l}`);
      const got = (await laneMessages(dbB, l)).map((m) => [m.message_id, m.role, m.text]);
      expect(got).toEqual(want);
      expect((await laneMessages(dbB, l)).every((m) => m.status !== 'streaming')).toBe(true);
    };
    await expectLane(lane);
    await expectLane(thread.chat_id);
    const channel = await dbB.channels.get(created.chat_id);
    expect(channel?.name).toBe('Renamed while B slept');
    expect((await dbB.channels.get(thread.chat_id))?.parent_chat_id).toBe(created.chat_id);
    // A's read mark reached B.
    const newest = gw.gateway.store.messages(lane).at(-1)!;
    expect((await dbB.lanes.get(lane))?.readMessageId).toBe(newest.message_id);
    // The cursor is stored with the replay: a second sync replays nothing new.
    const cursor = (await dbB.sync.get(gw.url.replace(/\/ws$/, '/ws')))?.cursor;
    expect(cursor).toBe(gw.gateway.store.cursor((await dbB.settings.get('deviceId'))!.value as string));
    await b.stop();
  });
});

describe('the live cursor (spec README §16)', () => {
  /** Counts frames between the app's sync and sync.done, per connection. */
  /** Frames in one message: one, or a replay batch's (the app asks for batches). */
  const framesIn = (text: string) => {
    const frame = JSON.parse(text) as { type: string; payload: { frames?: unknown[] } };
    return frame.type === 'frames' ? (frame.payload.frames?.length ?? 0) : 1;
  };

  function countReplays(proxy: GatewayProxy): number[] {
    const replays: number[] = [];
    let counting = false;
    proxy.taps.toGateway = (data, isBinary) => {
      if (!isBinary && data.includes('"type":"sync"')) {
        counting = true;
        replays.push(0);
      }
      return data;
    };
    const before = proxy.taps.toClient;
    proxy.taps.toClient = (data, isBinary, relay) => {
      const out = before ? before(data, isBinary, relay) : data;
      if (!isBinary && counting) {
        if (data.includes('"type":"sync.done"')) counting = false;
        else replays[replays.length - 1]! += framesIn(String(data));
      }
      return out;
    };
    return replays;
  }

  const finals = async (db: ReturnType<typeof freshDb>, lane: string) =>
    (await laneMessages(db, lane)).filter((m) => m.role === 'assistant' && m.status === 'final').length;

  it('a reconnect after live turns replays nothing; a device away gets exactly what it missed', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    const replays = countReplays(proxy);
    const db = freshDb();
    const a = await pairedClient(db, proxy.url);
    const lane = await defaultLane(db);
    const deviceId = (await db.settings.get('deviceId'))!.value as string;
    for (let i = 0; i < 3; i++) {
      await a.send(lane, `live ${i}`);
      await until(async () => (await finals(db, lane)) === i + 1, `reply ${i}`);
    }
    // The cursor moved with the live frames, to the gateway's newest, without a sync.
    await until(
      async () => (await db.sync.get(proxy.url))?.cursor === gw.gateway.store.cursor(deviceId),
      'live cursor stored',
    );
    await a.stop();
    await a.start();
    await until(() => a.session()?.isSynced, 'synced again');
    expect(replays).toEqual([0, 0]);
    // The reconnect acknowledged everything: the gateway keeps nothing for this device.
    expect(gw.gateway.store.devices.get(deviceId)!.outbox).toEqual([]);
    await a.stop();

    // Away: another device chats; on return exactly the frames outboxed meanwhile come, once each.
    const other = await pairedClient(freshDb(), gw.url);
    cleanup.push(() => other.stop());
    const missed = gw.gateway.store.cursor(deviceId);
    await other.send(lane, 'while A is away');
    await until(
      () => gw.gateway.store.devices.get(deviceId)!.outbox.at(-1)?.frame.includes('"agent.idle"'),
      'the other turn outboxed for A',
    );
    const away = gw.gateway.store.cursor(deviceId) - missed;
    await a.start();
    cleanup.push(() => a.stop());
    await until(() => a.session()?.isSynced, 'A back');
    expect(replays.at(-1)).toBe(away);
    expect(await finals(db, lane)).toBe(4);
    expect((await db.sync.get(proxy.url))?.cursor).toBe(gw.gateway.store.cursor(deviceId));
  });

  it('a gateway that sends no cursor: the cursor moves only at sync.done, and everything still comes', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    // Another Iris gateway: the same frames without the §16 envelope field.
    proxy.taps.toClient = (data, isBinary) => (isBinary ? data : data.toString('utf8').replace(/,"cursor":\d+/, ''));
    const replays = countReplays(proxy);
    const db = freshDb();
    const a = await pairedClient(db, proxy.url);
    const lane = await defaultLane(db);
    const atPairing = (await db.sync.get(proxy.url))?.cursor ?? 0;
    await a.send(lane, 'no cursor here');
    await until(async () => (await finals(db, lane)) === 1, 'reply');
    await until(async () => (await db.lanes.get(lane))?.busy === false, 'idle');
    expect((await db.sync.get(proxy.url))?.cursor ?? 0).toBe(atPairing);
    await a.stop();
    await a.start();
    cleanup.push(() => a.stop());
    await until(() => a.session()?.isSynced, 'synced again');
    // Today's behaviour: the whole conversation since the last sync.done is replayed, then stored.
    expect(replays.at(-1)).toBeGreaterThan(5);
    const deviceId = (await db.settings.get('deviceId'))!.value as string;
    expect((await db.sync.get(proxy.url))?.cursor).toBe(gw.gateway.store.cursor(deviceId));
    expect(await finals(db, lane)).toBe(1);
  });

  it('a frame that fails to store mid-stream holds the cursor back and is replayed without a reconnect', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    const replays = countReplays(proxy);
    let failNext = false;
    let failed: ServerFrame | undefined;
    const failing: Reducer = {
      apply: (db, frame, ctx) => {
        if (failNext && frame.type === 'message.stop') {
          failNext = false;
          failed = frame;
          return Promise.reject(new DOMException('The disk is full', 'QuotaExceededError'));
        }
        return applyFrame(db, frame, ctx);
      },
      applyBatch: (db, frames, ctx) => {
        if (failNext && frames.some((f) => f.type === 'message.stop'))
          return Promise.reject(new DOMException('The disk is full', 'QuotaExceededError'));
        return applyFrames(db, frames, ctx);
      },
    };
    const db = freshDb();
    const a = await pairedClient(db, proxy.url, { reducer: failing });
    cleanup.push(() => a.stop());
    const lane = await defaultLane(db);
    const deviceId = (await db.settings.get('deviceId'))!.value as string;
    failNext = true;
    await a.send(lane, 'the stop will not fit');
    await until(() => failed, 'the final frame failed once');
    const stored = (await db.sync.get(proxy.url))?.cursor ?? 0;
    expect(stored).toBeLessThan(failed!.cursor!);
    // The resync brings it again: the reply ends final, the cursor reaches the newest, on one connection.
    await until(async () => (await finals(db, lane)) === 1, 'the reply is final', 10_000);
    await until(
      async () => (await db.sync.get(proxy.url))?.cursor === gw.gateway.store.cursor(deviceId),
      'cursor caught up',
      10_000,
    );
    expect(replays.length).toBe(2);
    expect(replays[1]).toBeGreaterThan(0);
    expect(proxy.relays.size).toBe(1);
  });
});

describe('coalescing under a burst', () => {
  it('500 updates of one reply become far fewer DB writes, and the final text lands', async () => {
    const gw = await fixture.restart({ streamDelayMs: 0 });
    let updateWrites = 0;
    let updatesReceived = 0;
    const counting: Reducer = {
      apply: (db, frame, ctx) => {
        if (frame.type === 'message.update') updateWrites++;
        return applyFrame(db, frame, ctx);
      },
      applyBatch: (db, frames, ctx) => applyFrames(db, frames, ctx),
    };
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    proxy.taps.toClient = (data, isBinary) => {
      if (!isBinary && data.includes('"message.update"')) updatesReceived++;
      return data;
    };
    const db = freshDb();
    const c = await pairedClient(db, proxy.url, { reducer: counting });
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    await c.send(lane, '/stream 500');
    const reply = await until(
      async () => (await laneMessages(db, lane)).find((m) => m.role === 'assistant' && m.status === 'final'),
      'final reply',
      20_000,
    );
    const expected = gw.gateway.store.messages(lane).find((m) => m.role === 'assistant')!;
    expect(reply.text).toBe(expected.text);
    expect(reply.text.trim().endsWith('w500')).toBe(true);
    expect(updatesReceived).toBeGreaterThanOrEqual(500);
    expect(updateWrites).toBeLessThan(updatesReceived / 5);
  });
});

describe('hostile and odd input', () => {
  it('a malformed or unknown frame changes nothing', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    const db = freshDb();
    const c = await pairedClient(db, proxy.url);
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    c.setActiveLane(lane);
    await c.send(lane, 'hello');
    await until(
      async () => (await laneMessages(db, lane)).some((m) => m.role === 'assistant' && m.status === 'final'),
      'reply',
    );
    await until(async () => (await db.lanes.get(lane))?.busy === false, 'idle');
    await new Promise((r) => setTimeout(r, 200));
    const before = await dump(db);
    const junk: (string | object)[] = [
      'not json at all',
      '{"v":1,"type":',
      '[]',
      '42',
      '{"v":1,"payload":{}}',
      { v: 1, type: '', payload: {} },
      { v: 1, type: 'from.the.future', chat_id: lane, payload: { message_id: 'x', text: 'boo' } },
      { v: 1, type: 'message', chat_id: lane, payload: { message_id: 42, role: 'assistant', text: 'bad id' } },
      { v: 1, type: 'message', chat_id: lane, payload: 'not an object' },
      { v: 1, type: 'message.update', chat_id: lane, payload: { message_id: { evil: true }, text: 'x' } },
      { v: 1, type: 'channel.created', payload: { name: 'no id' } },
      { v: 1, type: 'sync.done', payload: { cursor: 'lots' } },
      { v: 1, type: 'error', id: 999, payload: { code: 'internal', message: 'nobody asked' } },
      { v: 1, type: 'media.pull.end', id: 12345, payload: { ok: true } },
    ];
    for (const j of junk) proxy.inject(typeof j === 'string' ? j : JSON.stringify(j));
    // A binary frame with no transfer open, too.
    for (const r of proxy.relays) r.client.send(Buffer.from([1, 2, 3]), { binary: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(c.state()).toBe('online');
    // The stray error is shown to the person (the store's rule for `error`); nothing else changed.
    const after = await dump(db);
    expect(after.toasts.map((t) => (t as { title: string }).title)).toEqual([
      ...before.toasts.map((t) => (t as { title: string }).title),
      'nobody asked',
    ]);
    expect({ ...after, toasts: before.toasts }).toEqual(before);
  });

  it('a refused token: state auth-failed, the reason shown, and no reconnect loop', async () => {
    const gw = await fixture.restart();
    let attempts = 0;
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    proxy.taps.toGateway = (data, isBinary) => {
      if (!isBinary && data.includes('"hello"')) attempts++;
      return data;
    };
    const db = freshDb();
    const c = client(db);
    cleanup.push(() => c.stop());
    await c.start();
    await c.pair(proxy.url, 'not-' + TOKEN);
    await until(() => c.state() === 'auth-failed', 'auth-failed');
    expect(c.lastError()).toMatch(/token/i);
    await new Promise((r) => setTimeout(r, 2000));
    expect(attempts).toBe(1);
    expect(c.state()).toBe('auth-failed');
    // Pairing again with the right token recovers.
    await c.pair(proxy.url, TOKEN);
    await until(() => c.state() === 'online', 'online after re-pairing');
  });
});
