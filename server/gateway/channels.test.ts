import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

const token = 'channel-token';
const fixture = useGateway({ token, streamDelayMs: 0 });
const { device } = fixture;

describe('channels', () => {
  it('starts with General (default) and a demo channel; channel.list answers the directory', async () => {
    const c = await device('dev-a');
    const list = await c.request('channel.list');
    expect(list.type).toBe('channel.list');
    expect(list.payload.channels).toEqual([
      { chat_id: 'web:default', name: 'General', kind: 'default', is_default: true },
      { chat_id: 'web:demo', name: 'Demo', kind: 'channel' },
    ]);
  });

  it('create broadcasts channel.created, with the request id only to the requester', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    const fromB = b.mark();
    const created = await a.request('channel.create', {
      name: '  Road   trip ',
      kind: 'channel',
      parent_chat_id: null,
    });
    expect(created).toMatchObject({ type: 'channel.created', payload: { name: 'Road trip', kind: 'channel' } });
    const other = await b.waitType('channel.created', { from: fromB });
    expect(other.id).toBeUndefined();
    expect(other.payload).toEqual(created.payload);
    const thread = await a.request('channel.create', {
      name: 'Tickets',
      kind: 'thread',
      parent_chat_id: created.payload.chat_id,
    });
    expect(thread.payload).toMatchObject({ kind: 'thread', parent_chat_id: created.payload.chat_id });
    expect((await a.request('channel.list')).payload.channels).toHaveLength(4);
  });

  it('rejects a nameless channel and a thread without a known parent', async () => {
    const c = await device('dev-a');
    expect((await c.request('channel.create', { name: '   ', kind: 'channel' })).payload.code).toBe('unsupported');
    expect(
      (await c.request('channel.create', { name: 'x', kind: 'thread', parent_chat_id: 'web:nope' })).payload.code,
    ).toBe('not_found');
  });

  it('rename, favorite and icon answer channel.renamed with the whole entry', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    const fromB = b.mark();
    const r = await a.request('channel.rename', { name: 'Demo room' }, { chat_id: 'web:demo' });
    expect(r).toMatchObject({
      type: 'channel.renamed',
      payload: { chat_id: 'web:demo', name: 'Demo room', kind: 'channel' },
    });
    const f = await a.request('channel.favorite', { favorite: true }, { chat_id: 'web:demo' });
    expect(f.payload).toEqual({ chat_id: 'web:demo', name: 'Demo room', kind: 'channel', favorite: true });
    const i = await a.request('channel.icon', { icon: '🚀', color: '#ff8800' }, { chat_id: 'web:demo' });
    expect(i.payload).toEqual({
      chat_id: 'web:demo',
      name: 'Demo room',
      kind: 'channel',
      favorite: true,
      icon: '🚀',
      color: '#ff8800',
    });
    const unfav = await a.request('channel.favorite', { favorite: false }, { chat_id: 'web:demo' });
    expect(unfav.payload.favorite).toBeUndefined();
    expect(
      (await a.request('channel.icon', { color: 'url(javascript:alert(1))' }, { chat_id: 'web:demo' })).payload.code,
    ).toBe('unsupported');
    await b.waitFor(() => b.ofType('channel.renamed', fromB).length === 4, { from: fromB });
    expect(b.ofType('channel.renamed', fromB).every((x) => x.id === undefined)).toBe(true);
    expect((await a.request('channel.rename', { name: 'x' }, { chat_id: 'web:nope' })).payload.code).toBe('not_found');
  });

  it('set_default moves is_default and announces both entries', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    const r = await c.request('channel.set_default', {}, { chat_id: 'web:demo' });
    expect(r).toMatchObject({ type: 'channel.renamed', payload: { chat_id: 'web:demo', is_default: true } });
    const renamed = c.ofType('channel.renamed', from);
    expect(renamed.map((x) => x.payload.chat_id)).toEqual(['web:default', 'web:demo']);
    expect(renamed[0].payload.is_default).toBeUndefined();
    // A message without a lane now goes to the new default.
    const { echo } = await c.chat('where am I');
    expect(echo.chat_id).toBe('web:demo');
  });

  it('delete archives the channel (and its threads) with channel.deleted; the default cannot be deleted', async () => {
    const c = await device('dev-a');
    const ch = await c.request('channel.create', { name: 'Old', kind: 'channel' });
    const th = await c.request('channel.create', {
      name: 'Old thread',
      kind: 'thread',
      parent_chat_id: ch.payload.chat_id,
    });
    const from = c.mark();
    const del = await c.request('channel.delete', {}, { chat_id: ch.payload.chat_id });
    expect(del).toMatchObject({ type: 'channel.deleted', payload: { chat_id: ch.payload.chat_id } });
    expect(c.ofType('channel.deleted', from).map((f) => f.payload.chat_id)).toEqual([
      th.payload.chat_id,
      ch.payload.chat_id,
    ]);
    const entries = (await c.request('channel.list')).payload.channels;
    expect(entries.find((e: { chat_id: string }) => e.chat_id === ch.payload.chat_id)).toMatchObject({
      archived: true,
    });
    expect(entries.find((e: { chat_id: string }) => e.chat_id === th.payload.chat_id)).toMatchObject({
      archived: true,
    });
    expect((await c.request('channel.delete', {}, { chat_id: 'web:default' })).payload.code).toBe('unsupported');
  });

  it('/thread mints a thread (channel.created auto), answers inside it, then renames it', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    const echo = await c.request(
      'message.send',
      { text: '/thread plan the trip to Rome in May', client_id: 't1' },
      { chat_id: 'web:demo' },
    );
    const created = c.ofType('channel.created', from)[0];
    expect(created.payload).toMatchObject({
      kind: 'thread',
      parent_chat_id: 'web:demo',
      auto: true,
      name: 'plan the trip to Rome…',
    });
    const thread = created.payload.chat_id;
    expect(c.frames.indexOf(created)).toBeLessThan(c.frames.indexOf(echo));
    expect(echo).toMatchObject({ chat_id: 'web:demo', thread_id: thread, payload: { client_id: 't1' } });
    const renamed = await c.waitType('channel.renamed', { from });
    expect(renamed.payload).toMatchObject({
      chat_id: thread,
      name: 'Re: Plan the trip to Rome in May',
      parent_chat_id: 'web:demo',
      kind: 'thread',
    });
    const stop = c.ofType('message.stop', from)[0];
    expect(stop).toMatchObject({ chat_id: 'web:demo', thread_id: thread });
    expect(stop.payload.final_text).toContain('**Echo:** plan the trip to Rome in May');
    expect(c.frames.indexOf(stop)).toBeLessThan(c.frames.indexOf(renamed));
    expect(fixture.gw.gateway.store.messages(thread).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
