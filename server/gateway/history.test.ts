import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

const token = 'history-token';
const fixture = useGateway({ token, streamDelayMs: 0 });
const { device } = fixture;

function seed(lane: string, n: number): string[] {
  const ids: string[] = [];
  for (let i = 1; i <= n; i++)
    ids.push(
      fixture.gw.gateway.store.conversations.append({ lane, role: i % 2 ? 'user' : 'assistant', text: `note ${i}` })
        .message_id,
    );
  return ids;
}

describe('history', () => {
  it('pages oldest→newest with has_more and oldest_message_id, default 50', async () => {
    const ids = seed('web:demo', 120);
    const c = await device('dev-a');
    const p1 = await c.request('history', {}, { chat_id: 'web:demo' });
    expect(p1).toMatchObject({
      type: 'history',
      id: 2,
      chat_id: 'web:demo',
      payload: { has_more: true, oldest_message_id: ids[70] },
    });
    expect(p1.payload.messages.map((m: { message_id: string }) => m.message_id)).toEqual(ids.slice(70));
    const p2 = await c.request(
      'history',
      { before_message_id: p1.payload.oldest_message_id, limit: 60 },
      { chat_id: 'web:demo' },
    );
    expect(p2.payload.messages.map((m: { text: string }) => m.text)).toEqual(
      ids.slice(10, 70).map((_, i) => `note ${i + 11}`),
    );
    expect(p2.payload.has_more).toBe(true);
    const p3 = await c.request(
      'history',
      { before_message_id: p2.payload.oldest_message_id, limit: 500 },
      { chat_id: 'web:demo' },
    );
    expect(p3.payload.messages).toHaveLength(10);
    expect(p3.payload.has_more).toBe(false);
    const small = await c.request('history', { limit: 0 }, { chat_id: 'web:demo' });
    expect(small.payload.messages).toHaveLength(1);
  });

  it('an empty lane has no messages and no oldest id; unknown lanes and cursors are not_found', async () => {
    const c = await device('dev-a');
    const empty = await c.request('history', { limit: 10 }, { chat_id: 'web:default' });
    expect(empty.payload).toEqual({ messages: [], has_more: false });
    expect((await c.request('history', {}, { chat_id: 'web:nope' })).payload.code).toBe('not_found');
    expect(
      (await c.request('history', { before_message_id: 'msg_nope' }, { chat_id: 'web:default' })).payload.code,
    ).toBe('not_found');
  });

  it('carries a thread lane in the envelope and returns final messages with client_id', async () => {
    const c = await device('dev-a');
    const th = await c.request('channel.create', { name: 't', kind: 'thread', parent_chat_id: 'web:default' });
    const { echo, stop } = await c.chat('in the thread', { chat_id: 'web:default', thread_id: th.payload.chat_id });
    const page = await c.request('history', {}, { chat_id: 'web:default', thread_id: th.payload.chat_id });
    expect(page).toMatchObject({ chat_id: 'web:default', thread_id: th.payload.chat_id });
    expect(page.payload.messages[0]).toMatchObject({
      message_id: echo.payload.message_id,
      role: 'user',
      client_id: echo.payload.client_id,
    });
    expect(page.payload.messages[1]).toMatchObject({
      message_id: stop!.payload.message_id,
      text: stop!.payload.final_text,
      reasoning: stop!.payload.reasoning,
    });
  });
});

describe('search', () => {
  it('finds messages in all lanes or one lane, newest first, with snippets', async () => {
    const c = await device('dev-a');
    const long = 'x'.repeat(100) + ' the Purple elephant sat down ' + 'y'.repeat(100);
    const m1 = fixture.gw.gateway.store.conversations.append({ lane: 'web:default', role: 'user', text: long });
    const m2 = fixture.gw.gateway.store.conversations.append({
      lane: 'web:demo',
      role: 'assistant',
      text: 'a purple sky',
    });
    const all = await c.request('search', { query: 'PURPLE', scope: 'all' });
    expect(all).toMatchObject({ type: 'search.results', payload: { query: 'PURPLE', scope: 'all' } });
    expect(all.payload.hits.map((h: { message_id: string }) => h.message_id)).toEqual([m2.message_id, m1.message_id]);
    const hit = all.payload.hits[1];
    expect(hit).toMatchObject({ chat_id: 'web:default', thread_id: null, role: 'user', ts: m1.ts });
    expect(hit.snippet).toMatch(/^….*Purple elephant.*…$/);
    expect(hit.snippet.length).toBeLessThan(120);
    const one = await c.request('search', { query: 'purple', scope: 'chat', chat_id: 'web:demo' });
    expect(one.payload.hits.map((h: { message_id: string }) => h.message_id)).toEqual([m2.message_id]);
    expect((await c.request('search', { query: '', scope: 'all' })).payload.hits).toEqual([]);
    expect((await c.request('search', { query: 'x', scope: 'chat', chat_id: 'web:nope' })).payload.code).toBe(
      'not_found',
    );
  });

  it('finds messages in threads with their thread_id', async () => {
    const c = await device('dev-a');
    const th = await c.request('channel.create', { name: 't', kind: 'thread', parent_chat_id: 'web:demo' });
    await c.chat('zebra crossing', { chat_id: 'web:demo', thread_id: th.payload.chat_id });
    const r = await c.request('search', {
      query: 'zebra',
      scope: 'chat',
      chat_id: 'web:demo',
      thread_id: th.payload.chat_id,
    });
    expect(r.payload.hits.length).toBeGreaterThanOrEqual(2);
    expect(r.payload.hits[0]).toMatchObject({ chat_id: 'web:demo', thread_id: th.payload.chat_id });
  });
});

describe('message.delete', () => {
  it('deletes, answers message.deleted with the request id, broadcasts and outboxes it', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    await b.close();
    const { echo, stop } = await a.chat('delete me', { chat_id: 'web:default' });
    const del = await a.request(
      'message.delete',
      { message_ids: [echo.payload.message_id, 'msg_unknown'] },
      { chat_id: 'web:default' },
    );
    expect(del).toMatchObject({
      type: 'message.deleted',
      chat_id: 'web:default',
      payload: { message_ids: [echo.payload.message_id] },
    });
    expect(fixture.gw.gateway.store.messages('web:default').map((m) => m.message_id)).toEqual([
      stop!.payload.message_id,
    ]);
    const b2 = await device('dev-b');
    const from = b2.mark();
    await b2.request('sync', { cursor: 0 });
    const replayed = b2.ofType('message.deleted', from);
    expect(replayed).toHaveLength(1);
    expect(replayed[0].payload.message_ids).toEqual([echo.payload.message_id]);
    expect(replayed[0].id).toBeUndefined();
    expect((await a.request('message.delete', { message_ids: ['msg_unknown'] })).payload.code).toBe('not_found');
  });
});

describe('read receipts from the app', () => {
  it('stores the newest per lane and tells the other devices only', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    const r1 = await a.chat('first', { chat_id: 'web:default' });
    const fromA = a.mark();
    const fromB = b.mark();
    a.send('read.receipt', { chat_id: 'web:default', message_id: r1.stop!.payload.message_id });
    const got = await b.waitFor((f) => f.type === 'read.receipt', { from: fromB });
    expect(got).toMatchObject({
      chat_id: 'web:default',
      payload: { chat_id: 'web:default', message_id: r1.stop!.payload.message_id },
    });
    expect(fixture.gw.gateway.store.conversations.readReceipt('web:default')).toBe(r1.stop!.payload.message_id);
    // An older mark does not move it back.
    a.send('read.receipt', { chat_id: 'web:default', message_id: r1.echo.payload.message_id });
    await a.request('ping', {});
    expect(fixture.gw.gateway.store.conversations.readReceipt('web:default')).toBe(r1.stop!.payload.message_id);
    expect(a.ofType('read.receipt', fromA)).toHaveLength(0);
  });
});
