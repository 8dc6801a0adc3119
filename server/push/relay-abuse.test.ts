// The relay is open to anyone (as ntfy topics are): registrations and publishes cost something per
// address, and a full store makes room instead of refusing, so a flood cannot lock a real device out.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RELAY_RATE_LIMITS } from './ntfy-relay';
import { openNtfySubscriptionStore } from './ntfy-store';
import { createPushRoutes, type PushRoutes } from './routes';
import { createTestSubscriber } from './testing/decrypt';
import { startFakePushService, type FakePushService } from './testing/fake-push-service';
import { serveOnLoopback, type TestServer } from './testing/serve';

const topic = () => randomBytes(16).toString('base64url');
const DAY = 24 * 3600_000;

let dataDir: string;
let service: FakePushService;
let routes: PushRoutes;
let server: TestServer;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'iris-relay-abuse-'));
  service = await startFakePushService();
  routes = createPushRoutes({ dataDir, testPushOrigins: [service.origin], retries: 0 });
  server = await serveOnLoopback(routes.handle);
});

afterEach(async () => {
  await routes.close();
  await server.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A request from `from` (any 127.x address is this machine, and a different client address). */
function request(
  from: string,
  method: string,
  path: string,
  body: string,
): Promise<{ status: number; retryAfter?: string }> {
  const url = new URL(path, server.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, localAddress: from, headers: { 'content-type': 'application/json', connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const subscribe = (from: string, t: string) =>
  request(
    from,
    'POST',
    '/push/ntfy-subscribe',
    JSON.stringify({ topic: t, subscription: createTestSubscriber(service.endpoint()).subscription }),
  );

describe('relay limits per address', () => {
  it('one address gets 10 registrations at once, then 429 with Retry-After; another address is not affected', async () => {
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push((await subscribe('127.0.0.2', topic())).status);
    expect(answers.slice(0, 10)).toEqual(new Array(10).fill(201));
    expect(answers.slice(10)).toEqual(new Array(15).fill(429));
    const refused = await subscribe('127.0.0.2', topic());
    expect(refused.retryAfter).toBe('60');
    expect((await subscribe('127.0.0.3', topic())).status).toBe(201);
  });

  it('publishes: 60 at once per address, then 429, so 10 subscriptions cannot turn a flood into thousands of pushes', async () => {
    expect(DEFAULT_RELAY_RATE_LIMITS.publish).toEqual({ burst: 60, perSecond: 1 });
    // The default burst, refilled slowly enough that a loaded machine cannot refill it during the test.
    await routes.close();
    await server.close();
    routes = createPushRoutes({
      dataDir,
      testPushOrigins: [service.origin],
      retries: 0,
      relayRateLimits: { ...DEFAULT_RELAY_RATE_LIMITS, publish: { burst: 60, perSecond: 1 / 3600 } },
    });
    server = await serveOnLoopback(routes.handle);
    const t = topic();
    expect((await subscribe('127.0.0.4', t)).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++)
      statuses.push((await request('127.0.0.5', 'POST', `/push/ntfy/${t}`, `message ${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual(new Array(10).fill(429));
    await routes.idle();
    expect(service.received).toHaveLength(60);
  });
});

describe('a full relay makes room', () => {
  it('a flood of registrations from many addresses cannot keep a new device out, nor push out a topic in use', async () => {
    let clock = 1_000 * DAY;
    const now = () => clock;
    const store = openNtfySubscriptionStore(dataDir, { maxTopics: 50, now });
    const sub = () => createTestSubscriber('https://fcm.googleapis.com/fcm/send/' + topic()).subscription;
    const used = topic();
    store.add(used, sub());
    store.markPublished(used);
    for (let i = 0; i < 500; i++) {
      clock += 1000;
      expect(store.add(topic(), sub())).toBe('added');
    }
    const newDevice = topic();
    expect(store.add(newDevice, sub())).toBe('added');
    expect(store.has(newDevice)).toBe(true);
    expect(store.has(used)).toBe(true);
    await store.flush();
    // What was published to is remembered across a restart.
    const reopened = openNtfySubscriptionStore(dataDir, { maxTopics: 50, now });
    for (let i = 0; i < 100; i++) reopened.add(topic(), sub());
    expect(reopened.has(used)).toBe(true);
    expect(reopened.has(newDevice)).toBe(false);
  });

  it('topics never published to are forgotten 30 days after they were registered; used ones are kept', () => {
    let clock = 1_000 * DAY;
    const store = openNtfySubscriptionStore(dataDir, { maxTopics: 3, now: () => clock });
    const sub = () => createTestSubscriber('https://fcm.googleapis.com/fcm/send/' + topic()).subscription;
    const [idle, used, recent] = [topic(), topic(), topic()];
    store.add(idle, sub());
    store.add(used, sub());
    store.markPublished(used);
    clock += 31 * DAY;
    store.add(recent, sub());
    // Full: making room for the next one drops the expired idle topic, nothing else.
    store.add(topic(), sub());
    expect([store.has(idle), store.has(used), store.has(recent)]).toEqual([false, true, true]);
  });
});
