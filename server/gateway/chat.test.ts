import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

const token = 'chat-token';
const fixture = useGateway({ token, streamDelayMs: 2 });
const { device } = fixture;

const EXPECTED_FINAL =
  '**Echo:** hello *world*\n\nYour message has **2** words and **13** characters.\n\n```text\nhello *world*\n```\n\n_— Iris demo agent_';

describe('message.send and the streamed reply', () => {
  it('echoes the user message, marks it read, streams the reply and stores the final text', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    const echo = await c.request(
      'message.send',
      { text: 'hello *world*', client_id: 'cid-1' },
      { chat_id: 'web:default' },
    );
    expect(echo).toMatchObject({
      type: 'message',
      id: 2,
      chat_id: 'web:default',
      payload: { role: 'user', text: 'hello *world*', client_id: 'cid-1' },
    });
    expect(typeof echo.payload.message_id).toBe('string');
    expect(typeof echo.payload.ts).toBe('number');
    await c.waitFor((f) => f.type === 'agent.idle', { from });
    const types: string[] = c.frames.slice(from).map((f) => f.type);
    // The order a person sees: sent, read, thinking, typing, the bubble grows, tools, final, idle.
    const order = [
      'message',
      'read.receipt',
      'agent.busy',
      'typing',
      'message.start',
      'message.update',
      'commentary',
      'tool.start',
      'tool.progress',
      'tool.end',
      'message.stop',
      'agent.idle',
    ];
    let last = -1;
    for (const t of order) {
      const at = types.indexOf(t, last + 1);
      expect(at, `${t} after index ${last} in ${types.join(',')}`).toBeGreaterThan(last);
      last = at;
    }
    expect(types.filter((t) => t === 'message.update').length).toBeGreaterThanOrEqual(3);
    const receipt = c.ofType('read.receipt', from)[0];
    expect(receipt.payload.message_id).toBe(echo.payload.message_id);
    expect(c.ofType('agent.busy', from).map((f) => f.payload.reason)).toEqual([
      'processing',
      'tool',
      'processing',
      'tool',
      'processing',
    ]);
    const updates = c.ofType('message.update', from).map((f) => f.payload.text as string);
    for (let i = 1; i < updates.length; i++) expect(updates[i].startsWith(updates[i - 1])).toBe(true);
    const stop = c.ofType('message.stop', from)[0];
    expect(stop.payload.final_text).toBe(EXPECTED_FINAL);
    expect(stop.payload).toMatchObject({ model: 'iris-demo-1', reasoning: expect.stringContaining('2 words') });
    expect(typeof stop.payload.tokens).toBe('number');
    expect(typeof stop.payload.ts).toBe('number');
    expect(updates.at(-1)).toBe(EXPECTED_FINAL);
    const toolEnd = c.ofType('tool.end', from)[0];
    expect(toolEnd.payload).toMatchObject({
      index: 0,
      name: 'word_count',
      ok: true,
      output_preview: '2 words, 13 characters',
    });
    expect(typeof toolEnd.payload.duration).toBe('number');
    // Two tools per ordinary turn, matched by index, with commentary before each.
    expect(c.ofType('tool.end', from).map((f) => [f.payload.index, f.payload.name])).toEqual([
      [0, 'word_count'],
      [1, 'format_code'],
    ]);
    expect(c.ofType('commentary', from)).toHaveLength(2);
    expect(c.ofType('tool.start', from)[0].payload).toMatchObject({
      index: 0,
      name: 'word_count',
      args: { text: 'hello *world*' },
    });
    const typing = c.ofType('typing', from).map((f) => f.payload.on);
    expect(typing).toEqual([true, false]);
    const stored = fixture.gw.gateway.store.messages('web:default');
    expect(stored.map((m) => [m.role, m.text])).toEqual([
      ['user', 'hello *world*'],
      ['assistant', EXPECTED_FINAL],
    ]);
    expect(stored[0].client_id).toBe('cid-1');
    expect(stored[1].message_id).toBe(stop.payload.message_id);
    // The `tools` extension: history keeps the turn's calls with the reply, as their tool.end said.
    const page = await c.request('history', { limit: 5 }, { chat_id: 'web:default' });
    const [asked, reply] = page.payload.messages as { tools?: unknown; thought_ms?: number }[];
    expect(asked!.tools).toBeUndefined();
    // And the `thought_ms` extension: the time to its first text, for a reply with reasoning.
    expect(reply!.thought_ms).toBeGreaterThanOrEqual(0);
    expect(asked!.thought_ms).toBeUndefined();
    expect(reply!.tools).toEqual([
      { index: 0, name: 'word_count', ok: true, duration: 0.012, preview: expect.stringContaining('word_count') },
      { index: 1, name: 'format_code', ok: true, duration: 0.012, preview: expect.any(String) },
    ]);
  });

  it('answers a repeated client_id the same way without storing it again', async () => {
    const c = await device('dev-a');
    const first = await c.chat('once only', { chat_id: 'web:default' }, { client_id: 'dup-1' });
    const from = c.mark();
    const again = await c.request(
      'message.send',
      { text: 'once only', client_id: 'dup-1' },
      { chat_id: 'web:default' },
    );
    expect(again.type).toBe('message');
    expect(again.payload).toEqual(first.echo.payload);
    await new Promise((r) => setTimeout(r, 50));
    expect(c.frames.slice(from).map((f) => f.type)).toEqual(['message']);
    expect(fixture.gw.gateway.store.messages('web:default').filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('broadcasts the echo and the reply to the other devices, without the request id', async () => {
    const a = await device('dev-a');
    const b = await device('dev-b');
    const fromB = b.mark();
    const { echo } = await a.chat('from a', { chat_id: 'web:demo' });
    const bEcho = await b.waitFor((f) => f.type === 'message' && f.payload.message_id === echo.payload.message_id, {
      from: fromB,
    });
    expect(bEcho.id).toBeUndefined();
    expect(bEcho.payload.client_id).toBe(echo.payload.client_id);
    await b.waitFor((f) => f.type === 'message.stop', { from: fromB });
    await b.waitFor((f) => f.type === 'agent.idle', { from: fromB });
    // The read receipt for "the agent started" goes to the sender only.
    expect(b.ofType('read.receipt', fromB)).toHaveLength(0);
  });

  it('sends a thread lane with chat_id = parent and thread_id = the thread, and tolerates a bare thread chat_id', async () => {
    const c = await device('dev-a');
    const created = await c.request('channel.create', { name: 'T', kind: 'thread', parent_chat_id: 'web:demo' });
    const thread = created.payload.chat_id as string;
    const r1 = await c.chat('in thread', { chat_id: 'web:demo', thread_id: thread });
    expect(r1.echo).toMatchObject({ chat_id: 'web:demo', thread_id: thread });
    expect(r1.stop).toMatchObject({ chat_id: 'web:demo', thread_id: thread });
    const r2 = await c.chat('bare id', { chat_id: thread });
    expect(r2.echo).toMatchObject({ chat_id: 'web:demo', thread_id: thread });
    expect(
      fixture.gw.gateway.store
        .messages(thread)
        .map((m) => m.text)
        .filter((t) => !t.startsWith('**')),
    ).toEqual(['in thread', 'bare id']);
    expect(fixture.gw.gateway.store.messages('web:demo')).toHaveLength(0);
  });

  it('rejects an unknown lane, and a message with neither text nor media', async () => {
    const c = await device('dev-a');
    expect((await c.request('message.send', { text: 'x' }, { chat_id: 'web:nope' })).payload.code).toBe('not_found');
    expect((await c.request('message.send', { text: '  ' }, { chat_id: 'web:default' })).payload.code).toBe(
      'unsupported',
    );
    expect(fixture.gw.gateway.store.messages('web:default')).toHaveLength(0);
  });

  it('queues messages in one lane and answers each in order', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    c.send('message.send', { text: 'one', client_id: 'q1' }, { id: c.takeId(), chat_id: 'web:default' });
    c.send('message.send', { text: 'two', client_id: 'q2' }, { id: c.takeId(), chat_id: 'web:default' });
    await c.waitFor(() => c.ofType('agent.idle', from).length >= 2, { from, timeoutMs: 5000 });
    const texts = fixture.gw.gateway.store.messages('web:default').map((m) => `${m.role}:${m.text.split('\n')[0]}`);
    expect(texts).toEqual(['user:one', 'user:two', 'assistant:**Echo:** one', 'assistant:**Echo:** two']);
  });
});

describe('agent.stop and agent.steer', () => {
  it('stop ends the stream early with the text so far, then idle', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    await c.request('message.send', { text: '/long', client_id: 'l1' }, { chat_id: 'web:default' });
    await c.waitFor((f) => f.type === 'message.update' && (f.payload.text as string).includes('Line 2'), { from });
    const stopFrom = c.mark();
    const idle = await c.request('agent.stop', {}, { chat_id: 'web:default' });
    expect(idle.type).toBe('agent.idle');
    const stop = c.ofType('message.stop', stopFrom)[0] ?? c.ofType('message.stop', from)[0];
    const lastUpdate = c.ofType('message.update', from).at(-1)!;
    expect(stop.payload.final_text).toBe(lastUpdate.payload.text);
    expect(stop.payload.final_text).not.toContain('Line 40');
    const stored = fixture.gw.gateway.store.messages('web:default').at(-1)!;
    expect(stored).toMatchObject({ role: 'assistant', text: stop.payload.final_text });
    // The extension: every device (the live frame, a replay, history) learns the reply was stopped.
    expect(stop.payload.stopped).toBe(true);
    const page = await c.request('history', { limit: 5 }, { chat_id: 'web:default' });
    const kept = (page.payload.messages as { message_id: string; stopped?: boolean }[]).at(-1)!;
    expect(kept).toMatchObject({ message_id: stop.payload.message_id, stopped: true });
    // An update already on the wire when agent.stop was sent may still arrive before the stop; none after it.
    await new Promise((r) => setTimeout(r, 30));
    const afterStop = c.frames.indexOf(stop) + 1;
    expect(c.ofType('message.update', afterStop)).toHaveLength(0);
  });

  it('stop with nothing running answers agent.idle', async () => {
    const c = await device('dev-a');
    expect((await c.request('agent.stop', {}, { chat_id: 'web:default' })).type).toBe('agent.idle');
  });

  it('steer during a turn is acknowledged and the final text mentions it', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    await c.request('message.send', { text: '/long', client_id: 's1' }, { chat_id: 'web:default' });
    await c.waitType('message.update', { from });
    const ack = await c.request('agent.steer', { text: 'be brief' }, { chat_id: 'web:default' });
    expect(ack).toMatchObject({ type: 'commentary', payload: { text: 'Steering: be brief' } });
    const stop = await c.waitType('message.stop', { from, timeoutMs: 5000 });
    expect(stop.payload.final_text).toContain('**Steer:** be brief');
    expect(stop.payload.final_text).toContain('Line 40');
    expect(stop.payload.stopped, 'a reply that ran to its end was not stopped').toBeUndefined();
  });

  it('steer with no turn running is not_found', async () => {
    const c = await device('dev-a');
    expect((await c.request('agent.steer', { text: 'x' }, { chat_id: 'web:default' })).payload.code).toBe('not_found');
  });
});

describe('robustness', () => {
  it('answers unknown types with unsupported (with their id) and ignores malformed frames', async () => {
    const c = await device('dev-a');
    const err = await c.request('frobnicate', {});
    expect(err).toMatchObject({ type: 'error', id: 2, payload: { code: 'unsupported' } });
    c.sendRaw('{bad json');
    c.sendRaw('{"type":5}');
    c.sendRaw('"string"');
    c.sendRaw('{"type":"message.send","payload":"nope","id":"x"}');
    c.sendRaw(Buffer.from('stray binary'), true);
    c.sendRaw('{"type":"history","payload":{"limit":"many"},"id":77}');
    const page = await c.waitFor((f) => f.id === 77);
    expect(page.type).toBe('history');
    expect((await c.request('ping', { ts: 9 })).payload.ts).toBe(9);
  });

  it('answers ping with pong carrying ts', async () => {
    const c = await device('dev-a');
    expect(await c.request('ping', { ts: 1234 })).toMatchObject({ type: 'pong', id: 2, payload: { ts: 1234 } });
  });

  it('ignores a text frame over the frame limit with an error', async () => {
    await fixture.restart({ streamDelayMs: 0, maxFrameBytes: 1000 });
    const c = await device('dev-a');
    c.send('message.send', { text: 'x'.repeat(2000) }, { id: 50, chat_id: 'web:default' });
    const err = await c.waitType('error');
    expect(err.payload.code).toBe('unsupported');
    expect(fixture.gw.gateway.store.messages('web:default')).toHaveLength(0);
    expect((await c.request('ping', {})).type).toBe('pong');
  });

  it('rate-limits a flood with error rate_limited and keeps serving', async () => {
    await fixture.restart({ streamDelayMs: 0, rateLimit: { burst: 5, perSecond: 5 } });
    const c = await device('dev-a');
    const from = c.mark();
    for (let i = 0; i < 30; i++) c.send('ping', { ts: i }, { id: 100 + i });
    await c.waitFor((f) => f.id === 129);
    const limited = c.frames.slice(from).filter((f) => f.type === 'error' && f.payload.code === 'rate_limited');
    const pongs = c.ofType('pong', from);
    expect(limited.length).toBeGreaterThan(20);
    expect(pongs.length).toBeGreaterThanOrEqual(5);
    expect(pongs.length + limited.length).toBe(30);
    // The bucket refills at 5 a second: a ping is answered again once it has (each try may still be limited).
    await expect
      .poll(async () => (await c.request('ping', { ts: 1 })).type, { interval: 100, timeout: 5000 })
      .toBe('pong');
  });
});
