import { describe, expect, it } from 'vitest';
import { useGateway } from './testing';

const token = 'pairing-token-123';
const fixture = useGateway({ token, streamDelayMs: 0 });
const { logs } = fixture;
const connect = () => fixture.connect();

describe('pairing', () => {
  it('answers hello with hello.ack: caps, cursor and the channel directory', async () => {
    const c = await connect();
    const ack = await c.hello({ token, device_id: 'dev-a' });
    expect(ack.type).toBe('hello.ack');
    expect(ack.id).toBe(1);
    expect(ack.payload.server_caps).toMatchObject({ streaming: true, media: true, search: true, pickers: true });
    expect(ack.payload.sync_cursor).toBe(0);
    const names = ack.payload.channels.map((ch: { name: string }) => ch.name);
    expect(names).toContain('General');
    expect(ack.payload.channels.find((ch: { chat_id: string }) => ch.chat_id === 'web:default')).toMatchObject({
      is_default: true,
    });
    expect(ack.payload.channels.length).toBeGreaterThanOrEqual(2);
    expect(fixture.gw.gateway.connectionCount()).toBe(1);
  });

  it('refuses a wrong token with error auth, then closes', async () => {
    const c = await connect();
    const err = await c.hello({ token: 'wrong', device_id: 'dev-a' });
    expect(err).toMatchObject({ type: 'error', id: 1, payload: { code: 'auth' } });
    expect(await c.closed).toBe(1008);
    expect(fixture.gw.gateway.connectionCount()).toBe(0);
    expect(fixture.gw.gateway.store.devices.get('dev-a')).toBeUndefined();
  });

  it('accepts nothing before hello: another first frame gets error auth and a close', async () => {
    const c = await connect();
    const err = await c.request('channel.list', {});
    expect(err.payload.code).toBe('auth');
    await c.closed;
  });

  it('closes a socket on its first malformed or binary frame before hello; the next socket still pairs', async () => {
    for (const junk of ['not json', '[1,2]', '{"type":""}', Buffer.from([1, 2, 3])]) {
      const c = await connect();
      c.sendRaw(junk, Buffer.isBuffer(junk));
      expect(await c.closed).toBe(1008);
    }
    const c = await connect();
    const ack = await c.hello({ token, device_id: 'dev-a' });
    expect(ack.type).toBe('hello.ack');
  });

  it('needs a device_id', async () => {
    const c = await connect();
    const err = await c.request('hello', { token });
    expect(err.payload.code).toBe('auth');
  });

  it('records the device as a push target from hello, and fcm.register updates it', async () => {
    const c = await connect();
    const webpush = { endpoint: 'https://push.example/abc', expirationTime: null, keys: { p256dh: 'p', auth: 'a' } };
    await c.hello({ token, device_id: 'dev-w', device_name: 'Phone', caps: { push: 'webpush' }, extra: { webpush } });
    expect(fixture.gw.gateway.store.pushTargets()).toEqual([{ device_id: 'dev-w', mode: 'webpush', webpush }]);
    expect(fixture.gw.gateway.store.devices.get('dev-w')?.name).toBe('Phone');
    c.send('fcm.register', { ntfy_topic: 'topic-1' });
    const pong = await c.request('ping', { ts: 5 });
    expect(pong.payload.ts).toBe(5);
    expect(fixture.gw.gateway.store.pushTargets()[0]).toMatchObject({ mode: 'ntfy', ntfy_topic: 'topic-1' });
    const sub2 = { ...webpush, endpoint: 'https://push.example/def' };
    c.send('fcm.register', { webpush: sub2 });
    await c.request('ping', {});
    expect(fixture.gw.gateway.store.pushTargets()[0]).toMatchObject({ mode: 'webpush', webpush: sub2 });
  });

  it('never logs the token', async () => {
    const c = await connect();
    await c.hello({ token, device_id: 'dev-a' });
    const bad = await connect();
    await bad.hello({ token: token + 'x', device_id: 'dev-b' });
    await bad.closed;
    expect(logs.join('\n')).not.toContain(token);
  });

  it('answers a second hello with an error and keeps the connection', async () => {
    const c = await connect();
    await c.hello({ token, device_id: 'dev-a' });
    const err = await c.hello({ token, device_id: 'dev-a' });
    expect(err.payload.code).toBe('unsupported');
    expect((await c.request('ping', { ts: 1 })).type).toBe('pong');
  });

  it('sends status online after pairing', async () => {
    const c = await connect();
    await c.hello({ token, device_id: 'dev-a' });
    const status = await c.waitType('status');
    expect(status.payload.state).toBe('online');
  });
});
