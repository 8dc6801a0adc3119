import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

const fixture = useGateway({ token: 'notify-token', streamDelayMs: 0, recordPushes: true });
const { pushed } = fixture;
const webpush = { endpoint: 'https://push.example/sub-a', expirationTime: null, keys: { p256dh: 'k', auth: 'a' } };

const device = (id: string, hello: Record<string, unknown> = {}, caps: Record<string, unknown> = { push: 'none' }) =>
  fixture.device(id, { caps, extra: hello });

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('notifications', () => {
  it('/remind sends a cron notification and a cron message after the delay', async () => {
    const c = await device('dev-a');
    const from = c.mark();
    await c.request(
      'message.send',
      { text: '/remind 0.1 stretch your legs', client_id: 'r1' },
      { chat_id: 'web:demo' },
    );
    const ack = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'assistant', { from });
    expect(ack.payload.text).toBe("I'll remind you in 0.1 s: **stretch your legs**");
    expect(c.ofType('notification', from)).toHaveLength(0);
    const note = await c.waitType('notification', { from, timeoutMs: 2000 });
    expect(note).toMatchObject({
      chat_id: 'web:demo',
      payload: { kind: 'cron', title: 'Reminder', body: 'stretch your legs' },
    });
    expect(typeof note.payload.ts).toBe('number');
    const cron = await c.waitFor((f) => f.type === 'message' && f.payload.role === 'cron', { from });
    expect(cron.payload.text).toBe('stretch your legs');
    expect(fixture.gw.gateway.store.messages('web:demo').at(-1)).toMatchObject({
      role: 'cron',
      text: 'stretch your legs',
    });
  });

  it('/remind with bad arguments explains the usage', async () => {
    const c = await device('dev-a');
    const { from } = await c.chat('/remind soon', { chat_id: 'web:default' });
    const reply = c.frames.slice(from).find((f) => f.type === 'message' && f.payload.role === 'assistant')!;
    expect(reply.payload.text).toContain('Usage: `/remind <seconds> <text>`');
  });
});

describe('push', () => {
  it('pushes a new final reply only to devices with no live connection', async () => {
    const b = await device('dev-b', { webpush }, { push: 'webpush' });
    await b.close();
    const a = await device('dev-a', { ntfy_topic: 'topic-a' }, { push: 'ntfy' });
    const { stop } = await a.chat('wake b', { chat_id: 'web:default' });
    await settle();
    expect(pushed.map((p) => p.target.device_id)).toEqual(['dev-b']);
    expect(pushed[0]).toMatchObject({
      target: { device_id: 'dev-b', mode: 'webpush', webpush },
      payload: {
        kind: 'message',
        title: 'Iris demo agent',
        lane: 'web:default',
        chat_id: 'web:default',
        message_id: stop!.payload.message_id,
      },
    });
    expect(pushed[0].payload.body).toContain('**Echo:** wake b');
  });

  it('pushes approval, clarify and cron even to live devices, never to mode none', async () => {
    await device('dev-none');
    const a = await device('dev-a', { webpush }, { push: 'webpush' });
    const th = await a.request('channel.create', { name: 'th', kind: 'thread', parent_chat_id: 'web:demo' });
    await a.request(
      'message.send',
      { text: '/approve make deploy', client_id: 'p1' },
      { chat_id: 'web:demo', thread_id: th.payload.chat_id },
    );
    const picker = await a.waitType('picker.approval');
    await settle();
    expect(pushed).toHaveLength(1);
    expect(pushed[0].payload).toMatchObject({
      kind: 'approval',
      lane: th.payload.chat_id,
      chat_id: 'web:demo',
      thread_id: th.payload.chat_id,
      picker_id: picker.payload.picker_id,
      body: 'Run make deploy?',
    });
    pushed.length = 0;
    const from = a.mark();
    await a.request('message.send', { text: '/remind 0 now', client_id: 'p2' }, { chat_id: 'web:default' });
    await a.waitType('notification', { from });
    await a.waitFor((f) => f.type === 'message' && f.payload.role === 'cron', { from });
    await settle();
    expect(pushed.map((p) => p.payload.kind)).toEqual(['cron']);
    expect(pushed[0].payload.message_id).toBeDefined();
  });

  it('a failing push sink never breaks the gateway', async () => {
    fixture.failPushes();
    const b = await device('dev-b', { webpush }, { push: 'webpush' });
    await b.close();
    const a = await device('dev-a');
    await a.chat('one', { chat_id: 'web:default' });
    await settle();
    expect(pushed.length).toBe(1);
    const { stop } = await a.chat('two', { chat_id: 'web:default' });
    expect(stop!.payload.final_text).toContain('two');
  });

  it('a device whose subscription is cleared is not pushed any more', async () => {
    const b = await device('dev-b', { webpush }, { push: 'webpush' });
    await b.close();
    fixture.gw.gateway.store.devices.clearPush('dev-b');
    const a = await device('dev-a');
    await a.chat('x', { chat_id: 'web:default' });
    await settle();
    expect(pushed).toHaveLength(0);
  });
});
