import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactPushPath } from './ntfy-relay';
import { MAX_PUSH_JSON_BYTES } from './payload';
import { createPushRoutes, type PushRoutes } from './routes';
import { createTestSubscriber, decryptWebPush, type TestSubscriber } from './testing/decrypt';
import { startFakePushService, type FakePushService, type ReceivedPush } from './testing/fake-push-service';
import { serveOnLoopback, type TestServer } from './testing/serve';
import { verifyVapidAuthorization } from './testing/vapid-jwt';

let service: FakePushService;
let dataDir: string;
let routes: PushRoutes;
let server: TestServer;
let logs: string[];
let topic: string;
let subscriber: TestSubscriber;
const cleanups: Array<() => Promise<void> | void> = [];

/** What the app makes in proxy mode: a random 128-bit topic. */
const newTopic = () => randomBytes(16).toString('base64url');

function startRoutes(
  dir: string,
  extra: Parameters<typeof createPushRoutes>[0] extends infer O ? Partial<O> : never = {},
) {
  const r = createPushRoutes({
    dataDir: dir,
    testPushOrigins: [service.origin],
    retries: 0,
    // The spy every relay log line goes through: the test asserts no topic ever reaches it.
    log: (event, fields) => logs.push(JSON.stringify([event, fields ?? {}])),
    ...extra,
  });
  cleanups.push(() => r.close());
  return r;
}

beforeEach(async () => {
  logs = [];
  service = await startFakePushService();
  dataDir = mkdtempSync(join(tmpdir(), 'iris-ntfy-'));
  routes = startRoutes(dataDir);
  server = await serveOnLoopback(routes.handle);
  topic = newTopic();
  subscriber = createTestSubscriber(service.endpoint());
  const res = await subscribe(topic, subscriber.subscription);
  expect(res.status).toBe(201);
});

afterEach(async () => {
  // Whatever happened in the test, no topic may have been logged.
  const text = logs.join('\n');
  for (const t of knownTopics()) expect(text).not.toContain(t);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await server.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const topicsSeen = new Set<string>();
function knownTopics() {
  return [topic, ...topicsSeen];
}

function subscribe(t: string, subscription: unknown, method = 'POST', base = server.origin) {
  topicsSeen.add(t);
  return fetch(`${base}/push/ntfy-subscribe`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ topic: t, subscription }),
  });
}

function decrypt(push: ReceivedPush, who = subscriber): Record<string, unknown> {
  return JSON.parse(decryptWebPush(push.body, who).toString('utf8')) as Record<string, unknown>;
}

describe('ntfy relay', () => {
  it('forwards a header-form publish as a Web Push the browser can decrypt, answering like ntfy', async () => {
    const res = await fetch(`${server.origin}/push/ntfy/${topic}`, {
      method: 'POST',
      headers: {
        Title: 'Approve command?',
        Priority: 'high',
        Tags: 'approval,warning',
        Click: 'https://iris.example.org/#/c/42',
      },
      body: 'The agent wants to run: make deploy',
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({
      event: 'message',
      topic,
      message: 'The agent wants to run: make deploy',
      title: 'Approve command?',
      priority: 4,
      tags: ['approval', 'warning'],
      click: 'https://iris.example.org/#/c/42',
    });
    expect(answer.id).toMatch(/^[A-Za-z0-9_-]{10,}$/);
    expect(Math.abs((answer.time as number) - Date.now() / 1000)).toBeLessThan(5);

    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({
      source: 'ntfy',
      kind: 'approval',
      title: 'Approve command?',
      body: 'The agent wants to run: make deploy',
      click: 'https://iris.example.org/#/c/42',
      tags: ['approval', 'warning'],
      priority: 4,
    });
    expect(verifyVapidAuthorization(push!.headers.authorization).claims.aud).toBe(service.origin);
    expect(push!.headers.urgency).toBe('high');
    expect(push!.headers.ttl).toBe('3600');
    // One ntfy topic carries all of a device's notifications: never collapse them.
    expect(push!.headers.topic).toBeUndefined();
  });

  it('accepts PUT, the X- header aliases, RFC 2047 titles and query parameters', async () => {
    const title = 'Café ☕ ready';
    const res = await fetch(`${server.origin}/push/ntfy/${topic}?priority=2&tags=coffee`, {
      method: 'PUT',
      headers: {
        'X-Title': `=?UTF-8?B?${Buffer.from(title).toString('base64')}?=`,
        'X-Click': 'https://iris.example.org/',
      },
      body: 'brewed',
    });
    expect(res.status).toBe(200);
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({
      kind: 'generic',
      title,
      body: 'brewed',
      priority: 2,
      tags: ['coffee'],
      click: 'https://iris.example.org/',
    });
    expect(push!.headers.urgency).toBe('low');
    expect(push!.headers.ttl).toBe(String(24 * 60 * 60));
  });

  it('takes the message from a header when the body is empty, and drops non-web click URLs', async () => {
    const res = await fetch(`${server.origin}/push/ntfy/${topic}`, {
      method: 'POST',
      headers: { 'X-Message': 'from a header', Click: 'javascript:alert(1)' },
    });
    expect(res.status).toBe(200);
    const [push] = await service.waitForPushes(1);
    const message = decrypt(push!);
    expect(message.body).toBe('from a header');
    expect(message).not.toHaveProperty('click');
  });

  it('forwards ntfy’s JSON form', async () => {
    const res = await fetch(`${server.origin}/push/ntfy`, {
      method: 'POST',
      body: JSON.stringify({
        topic,
        message: 'Nightly backup finished',
        title: 'Cron',
        tags: ['cron'],
        priority: 3,
        click: 'https://iris.example.org/#/c/7',
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      event: 'message',
      topic,
      message: 'Nightly backup finished',
      title: 'Cron',
    });
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({
      kind: 'cron',
      title: 'Cron',
      body: 'Nightly backup finished',
      click: 'https://iris.example.org/#/c/7',
    });
    expect(push!.headers.urgency).toBe('high');
  });

  it('answers 404 for topics nobody registered, in both forms, and sends nothing', async () => {
    const stranger = newTopic();
    topicsSeen.add(stranger);
    const byPath = await fetch(`${server.origin}/push/ntfy/${stranger}`, { method: 'POST', body: 'hello' });
    expect(byPath.status).toBe(404);
    expect(((await byPath.json()) as { error: string }).error).toMatch(/topic not found/);
    const byJson = await fetch(`${server.origin}/push/ntfy`, {
      method: 'POST',
      body: JSON.stringify({ topic: stranger, message: 'hello' }),
    });
    expect(byJson.status).toBe(404);
    const short = await fetch(`${server.origin}/push/ntfy/short`, { method: 'POST', body: 'hello' });
    expect(short.status).toBe(404);
    await routes.idle();
    expect(service.received).toHaveLength(0);
  });

  it('cuts a 10 KiB body to 4 KiB, and the push to what fits a Web Push', async () => {
    const body = 'x'.repeat(5000) + 'é'.repeat(2700);
    expect(Buffer.byteLength(body)).toBeGreaterThan(10 * 1024);
    const res = await fetch(`${server.origin}/push/ntfy/${topic}`, { method: 'POST', body });
    expect(res.status).toBe(200);
    const { message } = (await res.json()) as { message: string };
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(message)).toBeGreaterThan(4000);
    expect(body.startsWith(message.replace(/…$/, ''))).toBe(true);

    const [push] = await service.waitForPushes(1);
    const plaintext = decryptWebPush(push!.body, subscriber);
    expect(plaintext.length).toBeLessThanOrEqual(MAX_PUSH_JSON_BYTES);
    const pushed = (JSON.parse(plaintext.toString('utf8')) as { body: string }).body;
    expect(body.startsWith(pushed.replace(/…$/, ''))).toBe(true);
  });

  it('cuts multi-byte text on a character boundary', async () => {
    // 6000 bytes of 2-byte characters: the cut at 4093 bytes (4096 less the marker) falls inside one.
    const res = await fetch(`${server.origin}/push/ntfy/${topic}`, { method: 'POST', body: 'é'.repeat(3000) });
    const { message } = (await res.json()) as { message: string };
    expect(message).not.toContain('\uFFFD');
    expect(message).toBe('é'.repeat(2046) + '…');
  });

  it('refuses a huge declared body at once, without reading it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.origin}/push/ntfy/${topic}`, {
        method: 'POST',
        headers: { 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('only the start of a body that never comes');
    });
    expect(status).toBe(413);
    await routes.idle();
    expect(service.received).toHaveLength(0);
  });

  it('stops reading a streamed body once it is over the limit', async () => {
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      const req = http.request(`${server.origin}/push/ntfy/${topic}`, { method: 'POST' }); // chunked, no length
      let sent = 0;
      let answered = false;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!answered && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      req.on('response', (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, sent });
        req.destroy();
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
    await routes.idle();
    expect(service.received).toHaveLength(0);
  });

  it('validates registrations with clear errors', async () => {
    const bad = await subscribe('too-short', subscriber.subscription);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/topic must be 22 to 64 characters/);
    const noKeys = await subscribe(newTopic(), { endpoint: service.endpoint() });
    expect(noKeys.status).toBe(400);
    expect(((await noKeys.json()) as { error: string }).error).toBe('subscription.keys is missing');
    const notJson = await fetch(`${server.origin}/push/ntfy-subscribe`, { method: 'POST', body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toBe('request body is not valid JSON');
    const again = await subscribe(topic, subscriber.subscription);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true, result: 'updated' });
    const get = await fetch(`${server.origin}/push/ntfy-subscribe`);
    expect(get.status).toBe(405);
  });

  it('refuses plain-http endpoints when not in test mode', async () => {
    const strictDir = mkdtempSync(join(tmpdir(), 'iris-ntfy-strict-'));
    cleanups.push(() => rmSync(strictDir, { recursive: true, force: true }));
    const strict = createPushRoutes({ dataDir: strictDir });
    cleanups.push(() => strict.close());
    const strictServer = await serveOnLoopback(strict.handle);
    cleanups.push(() => strictServer.close());
    const res = await subscribe(newTopic(), subscriber.subscription, 'POST', strictServer.origin);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('subscription.endpoint must be an https URL');
  });

  it('unregisters a browser, after which its topic is unknown', async () => {
    const res = await fetch(`${server.origin}/push/ntfy-subscribe`, {
      method: 'DELETE',
      body: JSON.stringify({ topic, endpoint: subscriber.subscription.endpoint }),
    });
    expect(await res.json()).toEqual({ ok: true, removed: true });
    const publish = await fetch(`${server.origin}/push/ntfy/${topic}`, { method: 'POST', body: 'anyone?' });
    expect(publish.status).toBe(404);
  });

  it.each([410, 404])('forgets a subscription the push service answers %i for, on disk too', async (status) => {
    const goneTopic = newTopic();
    const goneSubscriber = createTestSubscriber(service.endpoint(status));
    expect((await subscribe(goneTopic, goneSubscriber.subscription)).status).toBe(201);
    await routes.relay.store.flush();
    const file = join(dataDir, 'ntfy-subscriptions.json');
    expect(readFileSync(file, 'utf8')).toContain(goneTopic);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect((await fetch(`${server.origin}/push/ntfy/${goneTopic}`, { method: 'POST', body: 'hi' })).status).toBe(200);
    await service.waitForPushes(1);
    await routes.idle();
    expect(routes.relay.store.has(goneTopic)).toBe(false);
    await routes.relay.store.flush();
    expect(readFileSync(file, 'utf8')).not.toContain(goneTopic);
    expect(readFileSync(file, 'utf8')).toContain(topic);
    expect((await fetch(`${server.origin}/push/ntfy/${goneTopic}`, { method: 'POST', body: 'hi' })).status).toBe(404);
  });

  it('keeps registrations across a restart', async () => {
    await routes.close();
    const restarted = startRoutes(dataDir);
    const restartedServer = await serveOnLoopback(restarted.handle);
    cleanups.push(() => restartedServer.close());
    const res = await fetch(`${restartedServer.origin}/push/ntfy/${topic}`, { method: 'POST', body: 'still here' });
    expect(res.status).toBe(200);
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!).body).toBe('still here');
  });

  it('delivers a gateway notification for an ntfy-mode device through the same relay, in process', async () => {
    routes.sink.send(
      { device_id: 'tablet', mode: 'ntfy', ntfy_topic: topic },
      {
        kind: 'approval',
        title: 'Approve?',
        body: 'deploy to prod',
        lane: 'l1',
        chat_id: 'l1',
        picker_id: 'p9',
        ts: 1,
      },
    );
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({
      source: 'ntfy',
      kind: 'approval',
      title: 'Approve?',
      body: 'deploy to prod',
      priority: 4,
    });
    expect(push!.headers.urgency).toBe('high');
  });

  it('publishes to a real ntfy server over HTTP when configured (here: this relay)', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'iris-ntfy-gw-'));
    cleanups.push(() => rmSync(otherDir, { recursive: true, force: true }));
    const gateway = startRoutes(otherDir, {
      ntfyServer: `${server.origin}/push/ntfy`,
      ntfyClickUrl: (p) => `https://iris.example.org/#/c/${p.lane}`,
    });
    gateway.sink.send(
      { device_id: 'tablet', mode: 'ntfy', ntfy_topic: topic },
      { kind: 'generic', title: 'Réponse prête ✅', body: 'Voilà', lane: 'l2', chat_id: 'l2', ts: 1 },
    );
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({
      source: 'ntfy',
      kind: 'generic',
      title: 'Réponse prête ✅',
      body: 'Voilà',
      click: 'https://iris.example.org/#/c/l2',
      priority: 3,
    });
  });

  it('publishNtfy is the path the HTTP relay takes', async () => {
    expect(routes.publishNtfy(newTopic(), { body: 'x' })).toBeNull();
    const published = routes.publishNtfy(topic, { title: 'T', body: 'B', tags: 'a, b', priority: 'urgent' });
    expect(published).toMatchObject({
      event: 'message',
      topic,
      message: 'B',
      title: 'T',
      tags: ['a', 'b'],
      priority: 5,
    });
    const [push] = await service.waitForPushes(1);
    expect(decrypt(push!)).toMatchObject({ title: 'T', body: 'B', priority: 5 });
    expect(() => routes.publishNtfy(topic, { body: 'x', priority: 'loud' })).toThrow(/invalid priority/);
    const res = await fetch(`${server.origin}/push/ntfy/${topic}`, {
      method: 'POST',
      headers: { Priority: 'loud' },
      body: 'x',
    });
    expect(res.status).toBe(400);
  });
});

describe('redactPushPath', () => {
  it('hides relay topics from access logs', () => {
    expect(redactPushPath('/push/ntfy/AbCdEfGhIjKlMnOpQrStUv?title=x')).toBe('/push/ntfy/<topic>?title=x');
    expect(redactPushPath('/push/ntfy')).toBe('/push/ntfy');
    expect(redactPushPath('/push/vapid-public-key')).toBe('/push/vapid-public-key');
    expect(redactPushPath('/push/ntfy?topic=secret&x=1')).toBe('/push/ntfy?topic=<topic>&x=1');
  });
});
