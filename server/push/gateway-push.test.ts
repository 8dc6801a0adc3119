// End to end with the reference gateway: devices pair over a real WebSocket with a Web Push subscription
// the test made; what the gateway pushes arrives at a fake push service, and the test decrypts it.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGateway, DEFAULT_CHAT_ID, type Gateway } from '../gateway';
import { DEMO_AGENT_NAME } from '../gateway/agent/script';
import { TestClient } from '../gateway/testclient';
import { createPushRoutes, type PushRoutes } from './routes';
import { createTestSubscriber, decryptWebPush, type TestSubscriber } from './testing/decrypt';
import { startFakePushService, type FakePushService, type ReceivedPush } from './testing/fake-push-service';
import { verifyVapidAuthorization } from './testing/vapid-jwt';

const token = 'push-test-token-0123456789abcdef';
let dataDir: string;
let service: FakePushService;
let routes: PushRoutes;
let gateway: Gateway;
let server: http.Server;
let wsUrl: string;
const clients: TestClient[] = [];

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'iris-gw-push-'));
  service = await startFakePushService();
  routes = createPushRoutes({ dataDir: join(dataDir, 'push'), testPushOrigins: [service.origin], retries: 0 });
  gateway = createGateway({ token, push: routes.sink, streamDelayMs: 0 });
  // The wiring the serving process does: a gone subscription is forgotten, unless the device replaced it meanwhile.
  routes.setGoneHandler(({ device_id, endpoint }) => {
    if (gateway.store.devices.get(device_id)?.target.webpush?.endpoint === endpoint)
      gateway.store.devices.clearPush(device_id);
  });
  server = http.createServer((req, res) => {
    if (!routes.handle(req, res)) res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.close();
  await gateway.close();
  await routes.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function pairWithWebPush(device_id: string, subscriber: TestSubscriber): Promise<TestClient> {
  const client = await TestClient.paired(wsUrl, {
    token,
    device_id,
    caps: { min_protocol: 1, media: true, push: 'webpush' },
    extra: { webpush: subscriber.subscription },
  });
  clients.push(client);
  return client;
}

async function pairPlain(device_id: string): Promise<TestClient> {
  const client = await TestClient.paired(wsUrl, { token, device_id });
  clients.push(client);
  return client;
}

function decrypt(push: ReceivedPush, subscriber: TestSubscriber) {
  return JSON.parse(decryptWebPush(push.body, subscriber).toString('utf8')) as Record<string, unknown>;
}

function pushesTo(subscriber: TestSubscriber): ReceivedPush[] {
  const path = new URL(subscriber.subscription.endpoint).pathname;
  return service.received.filter((p) => p.path === path);
}

describe('the reference gateway pushes through server/push', () => {
  it('pushes an approval to a live webpush device, with its picker id, high urgency and a signed VAPID JWT', async () => {
    const phone = createTestSubscriber(service.endpoint());
    await pairWithWebPush('phone', phone);
    const desk = await pairPlain('desk');
    const from = desk.mark();
    await desk.request(
      'message.send',
      { text: '/approve make deploy', client_id: 'c-approve' },
      { chat_id: DEFAULT_CHAT_ID },
    );
    const picker = await desk.waitType('picker.approval', { from });

    const [push] = await service.waitForPushes(1);
    const message = decrypt(push!, phone);
    expect(message).toMatchObject({ kind: 'approval', title: 'Approval needed', picker_id: picker.payload.picker_id });
    expect(message.body).toContain('make deploy');
    expect(message.lane).toBe(picker.thread_id ?? picker.chat_id);
    expect(push!.headers.urgency).toBe('high');
    const jwt = verifyVapidAuthorization(push!.headers.authorization);
    expect(jwt.publicKey).toBe(routes.vapidPublicKey);
    expect(jwt.claims.aud).toBe(service.origin);
  });

  it('pushes a new reply to a device that is offline, and not to one that is live', async () => {
    const offline = createTestSubscriber(service.endpoint());
    const live = createTestSubscriber(service.endpoint());
    const gone = await pairWithWebPush('offline-phone', offline);
    gone.ws.close();
    await gone.closed;
    await pairWithWebPush('live-phone', live);
    const desk = await pairPlain('desk');
    await desk.chat('hello there', { chat_id: DEFAULT_CHAT_ID });
    await service.waitForPushes(1);
    await routes.idle();
    await new Promise((r) => setTimeout(r, 100));
    await routes.idle();
    expect(pushesTo(live)).toHaveLength(0);
    const [push] = pushesTo(offline);
    expect(decrypt(push!, offline)).toMatchObject({ kind: 'message', title: DEMO_AGENT_NAME });
    expect(push!.headers.urgency).toBe('normal');
  });

  it('forgets a device’s subscription when the push service answers 410', async () => {
    const dead = createTestSubscriber(service.endpoint(410));
    await pairWithWebPush('tablet', dead);
    expect(gateway.store.devices.get('tablet')?.target.mode).toBe('webpush');
    const desk = await pairPlain('desk');
    await desk.request('message.send', { text: '/approve ls', client_id: 'c-ls' }, { chat_id: DEFAULT_CHAT_ID });
    await service.waitForPushes(1);
    await routes.idle();
    expect(gateway.store.devices.get('tablet')?.target).toEqual({ device_id: 'tablet', mode: 'none' });
  });
});
