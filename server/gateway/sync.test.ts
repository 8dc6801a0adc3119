import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

type AnyFrame = { type: string; payload: Record<string, unknown> };

const token = 'sync-token';
const fixture = useGateway({ token, streamDelayMs: 0 });
const { device } = fixture;

describe('outbox and sync', () => {
  it('keeps what an offline device missed and replays it in order after its cursor', async () => {
    const b0 = await device('dev-b');
    const sync0 = await b0.request('sync', { cursor: 0 });
    expect(sync0).toMatchObject({ type: 'sync.done', payload: { cursor: 0 } });
    await b0.close();
    expect(fixture.gw.gateway.connectionCount()).toBe(0);

    const a = await device('dev-a');
    const { echo, stop } = await a.chat('while b is away', { chat_id: 'web:default' });
    await a.request('channel.create', { name: 'New room', kind: 'channel' });

    const b = await fixture.connect();
    const ack = await b.hello({ token, device_id: 'dev-b' });
    expect(ack.payload.sync_cursor).toBeGreaterThan(0);
    expect(ack.payload.sync_cursor).toBe(fixture.gw.gateway.store.cursor('dev-b'));
    const from = b.mark();
    const done = await b.request('sync', { cursor: 0 });
    expect(done).toMatchObject({ type: 'sync.done', payload: { cursor: ack.payload.sync_cursor } });
    const replay = b.frames.slice(from, -1);
    const types = replay.map((f) => f.type);
    expect(types).not.toContain('message.update');
    expect(types).not.toContain('tool.progress');
    expect(types).not.toContain('read.receipt'); // that one was for the sender only
    for (const t of [
      'message',
      'agent.busy',
      'message.start',
      'commentary',
      'tool.start',
      'tool.end',
      'message.stop',
      'agent.idle',
      'channel.created',
    ]) {
      expect(types, t).toContain(t);
    }
    expect(types.indexOf('message')).toBeLessThan(types.indexOf('message.stop'));
    expect(types.indexOf('message.stop')).toBeLessThan(types.indexOf('channel.created'));
    for (const f of replay) expect(f.id).toBeUndefined();
    expect(replay.find((f) => f.type === 'message')!.payload.message_id).toBe(echo.payload.message_id);
    expect(replay.find((f) => f.type === 'message.stop')!.payload.final_text).toBe(stop!.payload.final_text);

    // From a middle cursor only the tail; from the newest cursor there is nothing more.
    const from2 = b.mark();
    await b.request('sync', { cursor: done.payload.cursor - 2 });
    expect(b.frames.slice(from2).map((f) => f.type)).toEqual(types.slice(-2).concat('sync.done'));
    const from3 = b.mark();
    const done3 = await b.request('sync', { cursor: done.payload.cursor });
    expect(b.frames.slice(from3)).toEqual([done3]);
  });

  it('sends every outboxed frame with its cursor, live and replayed (spec README §16)', async () => {
    const a = await device('dev-a');
    const from = a.mark();
    const { echo } = await a.chat('carry the cursor', { chat_id: 'web:default' });
    const outbox = fixture.gw.gateway.store.devices.get('dev-a')!.outbox;
    const live = a.frames.slice(from).filter((f) => f.type !== 'message.update' && f.type !== 'tool.progress');
    // Every live frame is an outbox entry, in order, carrying that entry's cursor; the echo too (with its id).
    expect(live.map((f) => f.cursor)).toEqual(outbox.map((e) => e.cursor));
    expect(live.map((f) => f.type)).toEqual(outbox.map((e) => JSON.parse(e.frame).type));
    expect(echo.id).toBeDefined();
    expect(echo.cursor).toBe(outbox[0]!.cursor);
    // Coalescable frames are not outboxed and carry none.
    const updates = a.frames.slice(from).filter((f) => f.type === 'message.update');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((f) => f.cursor === undefined)).toBe(true);
    // Replayed: the same frames with the same cursors (and no request id).
    const from2 = a.mark();
    await a.request('sync', { cursor: 0 });
    const replay = a.frames.slice(from2, -1);
    expect(replay.map((f) => [f.type, f.cursor])).toEqual(live.map((f) => [f.type, f.cursor]));
    expect(replay.every((f) => f.id === undefined)).toBe(true);
  });

  it('an acknowledging sync drops what the device has; the next replays only what came after', async () => {
    const a = await device('dev-a');
    await a.chat('one', { chat_id: 'web:default' });
    const first = fixture.gw.gateway.store.cursor('dev-a');
    await a.request('sync', { cursor: first });
    expect(fixture.gw.gateway.store.devices.get('dev-a')!.outbox).toEqual([]);
    const from = a.mark();
    await a.chat('two', { chat_id: 'web:default' });
    const newest = fixture.gw.gateway.store.cursor('dev-a');
    expect(fixture.gw.gateway.store.devices.get('dev-a')!.outbox.map((e) => e.cursor)).toEqual(
      Array.from({ length: newest - first }, (_, i) => first + 1 + i),
    );
    // A reconnect from the acknowledged cursor gets exactly the frames after it.
    const b = await device('dev-a');
    const from2 = b.mark();
    const done = await b.request('sync', { cursor: first });
    const live = a.frames.slice(from).filter((f) => f.cursor !== undefined);
    expect(b.frames.slice(from2, -1).map((f) => f.cursor)).toEqual(live.map((f) => f.cursor));
    expect(done.payload.cursor).toBe(newest);
    // A cursor below what was acknowledged cannot bring back what was dropped.
    await b.request('sync', { cursor: newest });
    const from3 = b.mark();
    await b.request('sync', { cursor: 0 });
    expect(b.frames.slice(from3).map((f) => f.type)).toEqual(['sync.done']);
  });

  it('outboxes frames for live devices too, so the cursor covers everything they got', async () => {
    const a = await device('dev-a');
    expect(fixture.gw.gateway.store.cursor('dev-a')).toBe(0);
    await a.chat('live', { chat_id: 'web:default' });
    const cursor = fixture.gw.gateway.store.cursor('dev-a');
    expect(cursor).toBeGreaterThan(5);
    const outbox = fixture.gw.gateway.store.devices.get('dev-a')!.outbox;
    expect(outbox.map((e) => e.cursor)).toEqual(Array.from({ length: outbox.length }, (_, i) => i + 1));
    expect(outbox.some((e) => e.frame.includes('"read.receipt"'))).toBe(true);
    expect(outbox.some((e) => e.frame.includes('"message.update"'))).toBe(false);
    expect(outbox.every((e) => !/"id":/.test(e.frame))).toBe(true);
  });

  it('replays everything when the app holds a cursor beyond the newest (the gateway lost its state)', async () => {
    const a = await device('dev-a');
    await a.chat('x', { chat_id: 'web:default' });
    const newest = fixture.gw.gateway.store.cursor('dev-a');
    const from = a.mark();
    const done = await a.request('sync', { cursor: newest + 1000 });
    expect(done.payload.cursor).toBe(newest);
    expect(a.frames.slice(from).length).toBe(newest + 1);
  });

  it('a replay written many frames per write still arrives whole, in order, then sync.done', async () => {
    const b = await device('dev-b');
    await b.close();
    const devices = fixture.gw.gateway.store.devices;
    // More than a few of the gateway's writes (each carries a batch of frames), and not a multiple.
    const count = 1_000 + 7;
    for (let i = 0; i < count; i++)
      devices.append('dev-b', { v: 1, type: 'typing', chat_id: 'web:default', payload: { on: i % 2 === 0 } });
    const expected = devices.since('dev-b', 0).map((e) => e.cursor);
    const again = await device('dev-b');
    const from = again.mark();
    const done = await again.request('sync', { cursor: 0 });
    const replay = again.frames.slice(from, -1);
    expect(replay.map((f) => f.cursor)).toEqual(expected);
    expect(replay.slice(-count).map((f) => f.payload.on)).toEqual(Array.from({ length: count }, (_, i) => i % 2 === 0));
    expect(done.payload.cursor).toBe(expected.at(-1));
  });

  it('a device that asks for batches (caps.batches) gets the same replay in `frames` messages, a big frame alone', async () => {
    const b = await device('dev-b');
    await b.close();
    const devices = fixture.gw.gateway.store.devices;
    const count = 600;
    for (let i = 0; i < count; i++) {
      const text = i === 300 ? 'x'.repeat(300 * 1024) : `line ${i}`;
      devices.append('dev-b', {
        v: 1,
        type: 'message',
        chat_id: 'web:default',
        payload: { message_id: `m${i}`, role: 'assistant', text },
      });
    }
    const replayOf = async (caps: Record<string, unknown>) => {
      const c = await fixture.connect();
      await c.hello({ token, device_id: 'dev-b', caps: { min_protocol: 1, media: true, push: 'none', ...caps } });
      const from = c.raw.length; // as sent: the test client reads frames as the app does, one to a message
      await c.request('sync', { cursor: 0 });
      const received = c.raw.slice(from, -1).map((text) => JSON.parse(text) as AnyFrame);
      await c.close();
      return received;
    };
    const single = await replayOf({});
    const batched = await replayOf({ batches: true });
    expect(single.every((f) => f.type !== 'frames')).toBe(true);
    const unpacked = batched.flatMap((f) => (f.type === 'frames' ? (f.payload.frames as unknown[]) : [f]));
    expect(unpacked).toEqual(single);
    // 256 frames at most to a message; the 300 KiB one went on its own, between two batches.
    expect(batched.length).toBeLessThan(single.length / 50);
    for (const f of batched)
      if (f.type === 'frames') expect((f.payload.frames as unknown[]).length).toBeLessThanOrEqual(256);
    const big = batched.findIndex((f) => f.type === 'message' && f.payload.message_id === 'm300');
    expect(batched[big - 1]?.type).toBe('frames');
    expect(batched[big + 1]?.type).toBe('frames');
  });

  it('accumulates an outbox for a known device that is not connected', async () => {
    const b = await device('dev-b');
    await b.close();
    const before = fixture.gw.gateway.store.cursor('dev-b');
    const a = await device('dev-a');
    await a.chat('hi', { chat_id: 'web:default' });
    expect(fixture.gw.gateway.store.cursor('dev-b')).toBeGreaterThan(before);
  });

  it('counts live sockets', async () => {
    const a = await device('dev-a');
    await device('dev-b');
    expect(fixture.gw.gateway.connectionCount()).toBe(2);
    await a.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(fixture.gw.gateway.connectionCount()).toBe(1);
  });
});
