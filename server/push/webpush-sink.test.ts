import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointPolicy } from './endpoint-guard';
import { MAX_PUSH_JSON_BYTES } from './payload';
import { createTestSubscriber, decryptWebPush, type TestSubscriber } from './testing/decrypt';
import { startFakePushService, type FakePushService, type ReceivedPush } from './testing/fake-push-service';
import { verifyVapidAuthorization } from './testing/vapid-jwt';
import type { PushPayload, PushTarget } from './types';
import { loadOrCreateVapid, type Vapid } from './vapid';
import { createWebPushSink, type GoneSubscription } from './webpush-sink';

let service: FakePushService;
let dataDir: string;
let vapid: Vapid;
let sinks: Array<{ sender: { close(): void } }>;
let logs: Array<[string, Record<string, unknown> | undefined]>;

beforeEach(async () => {
  service = await startFakePushService();
  dataDir = mkdtempSync(join(tmpdir(), 'iris-push-'));
  vapid = loadOrCreateVapid(dataDir, { subject: 'mailto:ops@example.org' });
  sinks = [];
  logs = [];
});

afterEach(async () => {
  for (const sink of sinks) sink.sender.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function makeSink(
  extra: { timeoutMs?: number; retries?: number; retryDelayMs?: number; concurrency?: number; maxQueue?: number } = {},
) {
  const gone: GoneSubscription[] = [];
  const sink = createWebPushSink({
    vapid,
    endpoints: endpointPolicy({ testOrigins: [service.origin] }),
    retries: 0,
    onGone: (g) => gone.push(g),
    log: (event, fields) => logs.push([event, fields]),
    ...extra,
  });
  sinks.push(sink);
  return { sink, gone };
}

function webpushTarget(subscriber: TestSubscriber, device_id = 'dev-1'): PushTarget {
  return { device_id, mode: 'webpush', webpush: subscriber.subscription };
}

const approval: PushPayload = {
  kind: 'approval',
  title: 'Approve command?',
  body: 'rm -rf build/ — the agent wants to run this',
  lane: 'chat-42',
  chat_id: 'chat-42',
  picker_id: 'pick-7',
  message_id: 'm-9',
  ts: 1_760_000_000_000,
};

function decryptJson(push: ReceivedPush, subscriber: TestSubscriber): Record<string, unknown> {
  return JSON.parse(decryptWebPush(push.body, subscriber).toString('utf8')) as Record<string, unknown>;
}

describe('web push sink', () => {
  it('sends an aes128gcm body the subscriber can decrypt, with a valid VAPID JWT and delivery headers', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint());
    sink.send(webpushTarget(subscriber), approval);
    const [push] = await service.waitForPushes(1);

    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(decryptJson(push!, subscriber)).toEqual(approval); // the payload whole, as given

    const { header, claims, publicKey } = verifyVapidAuthorization(push!.headers.authorization);
    expect(header.alg).toBe('ES256');
    expect(publicKey).toBe(vapid.publicKey);
    expect(claims.aud).toBe(service.origin);
    expect(claims.sub).toBe('mailto:ops@example.org');
    const now = Date.now() / 1000;
    expect(claims.exp).toBeGreaterThan(now);
    expect(claims.exp).toBeLessThanOrEqual(now + 24 * 60 * 60);

    // The check can fail: another subscriber's keys do not open it.
    expect(() => decryptWebPush(push!.body, createTestSubscriber(service.endpoint()))).toThrow();

    expect(push!.headers.ttl).toBe('3600');
    expect(push!.headers.urgency).toBe('high');
    expect(push!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it('uses one topic per lane for chat messages, normal urgency and a day of TTL', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint());
    const message: PushPayload = {
      kind: 'generic',
      title: 'Iris',
      body: 'done',
      lane: 'lane-a',
      chat_id: 'lane-a',
      message_id: 'm1',
      ts: 1,
    };
    sink.send(webpushTarget(subscriber), message);
    sink.send(webpushTarget(subscriber), { ...message, message_id: 'm2' });
    sink.send(webpushTarget(subscriber), { ...message, lane: 'lane-b', chat_id: 'lane-b', message_id: 'm3' });
    sink.send(webpushTarget(subscriber), { ...approval, lane: 'lane-a', chat_id: 'lane-a' });
    const pushes = await service.waitForPushes(4);
    const byMessage = new Map(pushes.map((p) => [decryptJson(p, subscriber).message_id, p]));
    const a1 = byMessage.get('m1')!;
    const a2 = byMessage.get('m2')!;
    expect(a1.headers.topic).toBe(a2.headers.topic);
    expect(a1.headers.urgency).toBe('normal');
    expect(a1.headers.ttl).toBe(String(24 * 60 * 60));
    const laneB = byMessage.get('m3')!;
    expect(laneB.headers.topic).not.toBe(a1.headers.topic);
    // An unanswered approval must not be collapsed away by a later message in the same lane.
    expect(byMessage.get('m-9')!.headers.topic).not.toBe(a1.headers.topic);
  });

  it('marks cron pushes high urgency', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint());
    sink.send(webpushTarget(subscriber), {
      kind: 'cron',
      title: 'Daily report',
      body: 'ready',
      lane: 'c',
      chat_id: 'c',
      ts: 2,
    });
    const [push] = await service.waitForPushes(1);
    expect(push!.headers.urgency).toBe('high');
    expect(decryptJson(push!, subscriber).title).toBe('Daily report');
  });

  it('cuts a long body so the payload stays under the limit, without breaking characters', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint());
    const body = '"ünïcødé" 😀 '.repeat(2000);
    sink.send(webpushTarget(subscriber), { ...approval, body });
    const [push] = await service.waitForPushes(1);
    const plaintext = decryptWebPush(push!.body, subscriber);
    expect(plaintext.length).toBeLessThanOrEqual(MAX_PUSH_JSON_BYTES);
    expect(push!.body.length).toBeLessThan(4096);
    const json = JSON.parse(plaintext.toString('utf8')) as { body: string };
    expect(json.body.endsWith('…')).toBe(true);
    expect(body.startsWith(json.body.slice(0, -1))).toBe(true);
    expect(json.body.length).toBeGreaterThan(1000);
  });

  it.each([410, 404])('reports a subscription gone when the push service answers %i', async (status) => {
    const { sink, gone } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint(status));
    sink.send(webpushTarget(subscriber, 'dev-gone'), approval);
    await sink.sender.idle();
    expect(gone).toEqual([{ device_id: 'dev-gone', endpoint: subscriber.subscription.endpoint }]);
  });

  it('does not report a subscription gone on other failures', async () => {
    const { sink, gone } = makeSink();
    sink.send(webpushTarget(createTestSubscriber(service.endpoint(500))), approval);
    sink.send(webpushTarget(createTestSubscriber(service.endpoint(403))), approval);
    await service.waitForPushes(2);
    await sink.sender.idle();
    expect(gone).toEqual([]);
    expect(logs.map(([e]) => e).sort()).toEqual(['push.webpush.failed', 'push.webpush.rejected']);
  });

  it('returns at once from send while the push service never answers, then times out', async () => {
    const { sink } = makeSink({ timeoutMs: 300 });
    const hanging = createTestSubscriber(service.endpoint('hang'));
    const healthy = createTestSubscriber(service.endpoint());
    const started = performance.now();
    sink.send(webpushTarget(hanging, 'dev-slow'), approval);
    sink.send(webpushTarget(healthy, 'dev-ok'), approval);
    expect(performance.now() - started).toBeLessThan(50);
    // Nothing is sent during the caller's turn.
    expect(service.received).toHaveLength(0);
    // The healthy device is not held up by the hanging one.
    await service.waitForPushes(2);
    await sink.sender.idle();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(logs).toContainEqual(['push.webpush.timeout', expect.objectContaining({ to: 'dev-slow' })]);
    expect(logs).toContainEqual(['push.webpush.sent', expect.objectContaining({ to: 'dev-ok', status: 201 })]);
    await expect.poll(() => service.abandoned.length).toBe(1);
  });

  it('keeps at most `concurrency` requests in flight, and drops what overflows the queue', async () => {
    const { sink } = makeSink({ timeoutMs: 300, concurrency: 1, maxQueue: 2 });
    const started = performance.now();
    sink.send(webpushTarget(createTestSubscriber(service.endpoint('hang')), 'first'), approval);
    sink.send(webpushTarget(createTestSubscriber(service.endpoint()), 'second'), approval);
    sink.send(webpushTarget(createTestSubscriber(service.endpoint()), 'third'), approval);
    expect(logs).toContainEqual(['push.webpush.queue_full', expect.objectContaining({ to: 'third' })]);
    await service.waitForPushes(2);
    // The second push waited for the first to time out: only one was in flight.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await sink.sender.idle();
    expect(service.received).toHaveLength(2);
  });

  it('retries a failing push service, and never throws into the caller', async () => {
    const { sink } = makeSink({ retries: 1, retryDelayMs: 50 });
    const broken = createTestSubscriber(service.endpoint(503));
    expect(() => sink.send(webpushTarget(broken), approval)).not.toThrow();
    await service.waitForPushes(2);
    await sink.sender.idle();
    expect(service.received).toHaveLength(2);
    expect(logs.filter(([e]) => e === 'push.webpush.failed').map(([, f]) => f?.retrying)).toEqual([true, false]);
    expect(() => sink.send(null as unknown as PushTarget, approval)).not.toThrow();
    expect(() =>
      sink.send(
        { device_id: 'd', mode: 'webpush', webpush: { endpoint: 'not a url', keys: { p256dh: 'x', auth: 'y' } } },
        approval,
      ),
    ).not.toThrow();
    expect(logs).toContainEqual([
      'push.webpush.invalid_subscription',
      expect.objectContaining({ reason: 'subscription.endpoint is not a URL' }),
    ]);
  });

  it('gives up at once on keys it cannot encrypt for (a p256dh off the curve)', async () => {
    const { sink } = makeSink({ retries: 2, retryDelayMs: 10 });
    const subscriber = createTestSubscriber(service.endpoint());
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    sink.send(
      {
        device_id: 'bad-keys',
        mode: 'webpush',
        webpush: {
          ...subscriber.subscription,
          keys: { ...subscriber.subscription.keys, p256dh: offCurve.toString('base64url') },
        },
      },
      approval,
    );
    await sink.sender.idle();
    expect(service.received).toHaveLength(0);
    expect(logs).toEqual([
      [
        'push.webpush.rejected',
        expect.objectContaining({ to: 'bad-keys', retrying: false, reason: expect.stringMatching(/^cannot encrypt/) }),
      ],
    ]);
  });

  it('ignores ntfy, fcm and none targets', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint());
    sink.send({ device_id: 'a', mode: 'ntfy', ntfy_topic: 'x'.repeat(22), webpush: subscriber.subscription }, approval);
    sink.send({ device_id: 'b', mode: 'fcm', fcm_token: 't', webpush: subscriber.subscription }, approval);
    sink.send({ device_id: 'c', mode: 'none', webpush: subscriber.subscription }, approval);
    await new Promise((r) => setTimeout(r, 100));
    await sink.sender.idle();
    expect(service.received).toHaveLength(0);
  });

  it('refuses plain-http endpoints unless told to allow them', async () => {
    const sink = createWebPushSink({ vapid, onGone: () => undefined, log: (e, f) => logs.push([e, f]) });
    sinks.push(sink);
    sink.send(webpushTarget(createTestSubscriber(service.endpoint())), approval);
    await sink.sender.idle();
    expect(service.received).toHaveLength(0);
    expect(logs).toContainEqual([
      'push.webpush.invalid_subscription',
      expect.objectContaining({ reason: 'subscription.endpoint must be an https URL' }),
    ]);
  });

  it('never logs endpoints or content', async () => {
    const { sink } = makeSink();
    const subscriber = createTestSubscriber(service.endpoint(410));
    sink.send(webpushTarget(subscriber), approval);
    await sink.sender.idle();
    const text = JSON.stringify(logs);
    expect(text).not.toContain(new URL(subscriber.subscription.endpoint).pathname);
    expect(text).not.toContain(approval.body);
    expect(text).toContain(service.origin);
  });
});
