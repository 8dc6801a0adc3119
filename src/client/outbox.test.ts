// Sending, online or not (spec README §5): exactly once, in order, across reloads, dropped
// connections, rate limits and gateways without the client_id extension.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFrame } from '../protocol';
import { laneMessages } from '../store/models/messages';
import { GatewayProxy } from '../testing/proxy';
import { freshDb, reopen } from '../testing/db';
import { client, defaultLane, pairedClient, userMessages, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway({ tempDataDir: true });
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('the send outbox', () => {
  it('ten messages sent offline across two reloads are delivered exactly once, in order, when the gateway starts', async () => {
    let gw = await fixture.restart();
    const port = gw.port;
    const url = gw.url;
    const db = freshDb();
    const first = await pairedClient(db, url);
    const lane = await defaultLane(db);
    await first.stop();
    await fixture.stop();

    // Offline: a page sends four, reloads, sends three, reloads, sends three.
    const texts = Array.from({ length: 10 }, (_, i) => `offline message ${i + 1}`);
    let page = client(reopen(db));
    await page.start();
    for (const t of texts.slice(0, 4)) await page.send(lane, t);
    await page.stop();
    page = client(reopen(db));
    await page.start();
    for (const t of texts.slice(4, 7)) await page.send(lane, t);
    await page.stop();
    const last = reopen(db);
    page = client(last);
    await page.start();
    cleanup.push(() => page.stop());
    for (const t of texts.slice(7)) await page.send(lane, t);
    // Shown at once, pending.
    const pending = await userMessages(last, lane);
    expect(pending.map((m) => [m.text, m.status])).toEqual(texts.map((t) => [t, 'pending']));
    expect(await last.outbox.count()).toBe(10);

    gw = await fixture.restart({ port });
    page.session()!.connection.wake();
    await until(
      () => gw.gateway.store.messages(lane).filter((m) => m.role === 'user').length >= 10,
      'ten delivered',
      15_000,
    );
    await until(async () => (await last.outbox.count()) === 0, 'outbox drained');
    await new Promise((r) => setTimeout(r, 300)); // anything sent twice would have landed by now
    const delivered = gw.gateway.store.messages(lane).filter((m) => m.role === 'user');
    expect(delivered.map((m) => m.text)).toEqual(texts);
    // The DB shows each once, no longer pending, under the gateway's ids.
    const shown = await userMessages(last, lane);
    expect(shown.map((m) => m.text)).toEqual(texts);
    expect(shown.every((m) => !m.message_id.startsWith('local:') && m.status !== 'pending')).toBe(true);
  });

  it('a message whose echo was lost when the connection dropped is re-sent with the same client_id and stored once', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    const db = freshDb();
    const c = await pairedClient(db, proxy.url);
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    let cuts = 0;
    // The gateway stores the message; its echo never reaches the client: the connection dies first.
    // (Its outboxed copy, which the next sync would replay, is lost too, so only a re-send can help.)
    proxy.taps.toClient = (data, isBinary) => {
      if (isBinary || cuts >= 2) return data;
      const f = parseFrame(data.toString());
      // A replay batch (the app asks for them): its outboxed copies of the message go the same way.
      if (f?.type === 'frames' && Array.isArray(f.payload.frames)) {
        const kept = f.payload.frames.filter((x: { type?: string; payload?: { role?: string } }) => {
          return !(x.type === 'message' && x.payload?.role === 'user');
        });
        return JSON.stringify({ ...f, payload: { frames: kept } });
      }
      if (f?.type === 'message' && f.payload.role === 'user') {
        if (f.id === undefined) return null;
        cuts++;
        return 'cut-before';
      }
      return data;
    };
    const sent: string[] = [];
    proxy.taps.toGateway = (data, isBinary) => {
      const f = isBinary ? null : parseFrame(data.toString());
      if (f?.type === 'message.send') sent.push(String(f.payload.client_id));
      return data;
    };
    const clientId = await c.send(lane, 'exactly once please');
    await until(() => cuts >= 1, 'first echo lost');
    c.session()!.connection.wake();
    await until(() => cuts === 2, "the re-send's echo lost too", 10_000);
    c.session()!.connection.wake();
    await until(async () => (await db.outbox.count()) === 0, 'delivered after the third try', 10_000);
    const stored = gw.gateway.store.messages(lane).filter((m) => m.role === 'user');
    expect(stored.map((m) => m.text)).toEqual(['exactly once please']);
    expect(sent).toEqual([clientId, clientId, clientId]); // sent three times, stored once
    const shown = await userMessages(db, lane);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.message_id).toBe(stored[0]!.message_id);
  });

  it('a send the gateway does not answer in time: its bubble says so while it goes again, same client_id, stored once', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    // The first message.send never reaches the gateway (so nothing answers it); the next goes through,
    // a second after the first timed out (the bubble's words are read in that second).
    const sent: string[] = [];
    proxy.taps.toGateway = (data, isBinary) => {
      const f = isBinary ? null : parseFrame(data.toString());
      if (f?.type !== 'message.send') return data;
      sent.push(String(f.payload.client_id));
      return sent.length === 1 ? null : data;
    };
    const db = freshDb();
    const c = await pairedClient(db, proxy.url, { requestTimeoutMs: 1000 });
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    const clientId = await c.send(lane, 'anyone there?');
    const waiting = await until(
      async () => (await userMessages(db, lane)).find((m) => m.status === 'pending' && m.error),
      'the bubble to say it had no answer',
      5_000,
    );
    expect(waiting.error).toBe('No answer from the gateway yet. Sending again…');
    await until(async () => (await db.outbox.count()) === 0, 'delivered on the next try', 10_000);
    expect(sent).toEqual([clientId, clientId]);
    expect(
      gw.gateway.store
        .messages(lane)
        .filter((m) => m.role === 'user')
        .map((m) => m.text),
    ).toEqual(['anyone there?']);
    const [shown] = await userMessages(db, lane);
    expect(shown!.status).not.toBe('pending');
    expect(shown!.error).toBeUndefined();
  });

  it('rate_limited: waits and sends again; every message arrives once, in order', async () => {
    // Refills slower than even a loaded machine sends six messages, so the limit is really hit.
    const gw = await fixture.restart({ rateLimit: { burst: 3, perSecond: 1 } });
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    let refusals = 0;
    proxy.taps.toClient = (data, isBinary) => {
      if (!isBinary && parseFrame(data.toString())?.payload.code === 'rate_limited') refusals++;
      return data;
    };
    const db = freshDb();
    const c = await pairedClient(db, proxy.url);
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    const texts = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
    for (const t of texts) await c.send(lane, t);
    await until(async () => (await db.outbox.count()) === 0, 'all sent', 15_000);
    expect(
      gw.gateway.store
        .messages(lane)
        .filter((m) => m.role === 'user')
        .map((m) => m.text),
    ).toEqual(texts);
    expect((await userMessages(db, lane)).some((m) => m.status === 'failed')).toBe(false);
    expect(refusals).toBeGreaterThan(0); // the limit was really hit
  });

  it('an error answer marks the message failed with the error in words; retry sends it again', async () => {
    const gw = await fixture.restart();
    const db = freshDb();
    const c = await pairedClient(db, gw.url);
    cleanup.push(() => c.stop());
    // A lane the gateway does not know: not_found.
    const clientId = await c.send('web:no-such-lane', 'into the void');
    await until(async () => (await userMessages(db, 'web:no-such-lane'))[0]?.status === 'failed', 'failed');
    const [bubble] = await userMessages(db, 'web:no-such-lane');
    expect(bubble!.error).toBe('No such channel or thread.'); // the gateway's words, not describeError(code)
    expect((await db.outbox.get(clientId))!.state).toBe('failed');
    // Sends after it are not blocked by it.
    const lane = await defaultLane(db);
    await c.send(lane, 'still works');
    await until(() => gw.gateway.store.messages(lane).some((m) => m.text === 'still works'), 'later send delivered');
    await c.retry(clientId);
    await until(
      async () =>
        (await db.outbox.get(clientId))?.attempts === 2 && (await db.outbox.get(clientId))?.state === 'failed',
      'retried',
    );
  });

  it('a gateway without the client_id extension: the echo is matched by request id, one bubble', async () => {
    const gw = await fixture.restart();
    const proxy = await GatewayProxy.start(gw.url);
    cleanup.push(() => proxy.close());
    proxy.taps.toClient = (data, isBinary) => {
      if (isBinary) return data;
      const f = parseFrame(data.toString());
      if (f?.type !== 'message' || !('client_id' in f.payload)) return data;
      delete f.payload.client_id;
      return JSON.stringify(f);
    };
    const db = freshDb();
    const c = await pairedClient(db, proxy.url);
    cleanup.push(() => c.stop());
    const lane = await defaultLane(db);
    await c.send(lane, 'no extension here');
    await until(async () => (await db.outbox.count()) === 0, 'sent');
    await until(
      async () => (await laneMessages(db, lane)).some((m) => m.role === 'assistant' && m.status === 'final'),
      'reply',
    );
    const shown = await userMessages(db, lane);
    expect(shown.map((m) => m.text)).toEqual(['no extension here']);
    expect(shown[0]!.message_id.startsWith('local:')).toBe(false);
  });
});
