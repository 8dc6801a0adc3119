import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pushLogToLines } from './log';
import { createPushRoutes, type PushRoutes } from './routes';
import { createTestSubscriber, decryptWebPush } from './testing/decrypt';
import { startFakePushService } from './testing/fake-push-service';
import { serveOnLoopback, type TestServer } from './testing/serve';
import { verifyVapidAuthorization } from './testing/vapid-jwt';
import { DEFAULT_VAPID_SUBJECT, vapidSubject } from './vapid';
import type { PushPayload } from './types';
import type { GoneSubscription } from './webpush-sink';

let dataDir: string;
let open: Array<{ close(): Promise<void> }>;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'iris-push-routes-'));
  open = [];
});

afterEach(async () => {
  for (const thing of open.reverse()) await thing.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function mount(routes: PushRoutes): Promise<TestServer> {
  open.push(routes);
  const server = await serveOnLoopback(routes.handle);
  open.push(server);
  return server;
}

describe('push routes', () => {
  it('makes VAPID keys once, keeps them private in the data dir, and serves the same key after a restart', async () => {
    const first = createPushRoutes({ dataDir });
    const firstServer = await mount(first);
    const res1 = await fetch(`${firstServer.origin}/push/vapid-public-key`);
    expect(res1.status).toBe(200);
    expect(res1.headers.get('content-type')).toMatch(/^application\/json/);
    const body1 = (await res1.json()) as { publicKey: string };
    expect(body1.publicKey).toBe(first.vapidPublicKey);
    expect(Buffer.from(body1.publicKey, 'base64url')).toHaveLength(65);

    const file = join(dataDir, 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    expect(stored.publicKey).toBe(body1.publicKey);

    const second = createPushRoutes({ dataDir });
    const secondServer = await mount(second);
    const body2 = (await (await fetch(`${secondServer.origin}/push/vapid-public-key`)).json()) as { publicKey: string };
    expect(body2.publicKey).toBe(body1.publicKey);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(stored);
  });

  it('refuses a damaged vapid.json with a clear error instead of replacing the keys', () => {
    writeFileSync(join(dataDir, 'vapid.json'), '{"publicKey": "abc", "privateKey": "def"}');
    expect(() => createPushRoutes({ dataDir })).toThrow(
      /vapid\.json is not a valid VAPID key file \(publicKey is 2 bytes, expected 65\)/,
    );
    expect(readFileSync(join(dataDir, 'vapid.json'), 'utf8')).toContain('"abc"');
  });

  it('refuses a vapid.json whose public key is not the private key’s', () => {
    const a = createPushRoutes({ dataDir });
    open.push(a);
    const other = mkdtempSync(join(tmpdir(), 'iris-push-other-'));
    const b = createPushRoutes({ dataDir: other });
    open.push(b);
    const mixed = {
      publicKey: b.vapidPublicKey,
      privateKey: (JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8')) as { privateKey: string }).privateKey,
    };
    writeFileSync(join(other, 'vapid.json'), JSON.stringify(mixed));
    expect(() => createPushRoutes({ dataDir: other })).toThrow(/publicKey does not belong to privateKey/);
    rmSync(other, { recursive: true, force: true });
  });

  it('fixes loose permissions on an existing key file', () => {
    open.push(createPushRoutes({ dataDir }));
    const file = join(dataDir, 'vapid.json');
    chmodSync(file, 0o644);
    open.push(createPushRoutes({ dataDir }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('answers only under /push/, with JSON errors', async () => {
    const routes = createPushRoutes({ dataDir });
    const server = await mount(routes);
    expect(await (await fetch(`${server.origin}/index.html`)).text()).toBe('static file');
    expect(await (await fetch(`${server.origin}/pushy`)).text()).toBe('static file');

    const missing = await fetch(`${server.origin}/push/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ http: 404, error: 'no push endpoint at /push/nothing-here' });

    const wrongMethod = await fetch(`${server.origin}/push/vapid-public-key`, { method: 'POST', body: 'x' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(((await wrongMethod.json()) as { error: string }).error).toMatch(/use GET/);
  });

  it('sends gateway pushes through its sink, signed with the persisted key, and reports gone subscriptions', async () => {
    const service = await startFakePushService();
    open.push(service);
    const routes = createPushRoutes({
      dataDir,
      subject: 'https://iris.example.org/app',
      testPushOrigins: [service.origin],
      retries: 0,
    });
    open.push(routes);
    const gone: GoneSubscription[] = [];
    routes.setGoneHandler((g) => gone.push(g));

    const live = createTestSubscriber(service.endpoint());
    const dead = createTestSubscriber(service.endpoint(410));
    const payload: PushPayload = {
      kind: 'clarify',
      title: 'Which branch?',
      body: 'main or dev',
      lane: 't1',
      chat_id: 'c1',
      thread_id: 't1',
      picker_id: 'p1',
      ts: 5,
    };
    routes.sink.send({ device_id: 'phone', mode: 'webpush', webpush: live.subscription }, payload);
    routes.sink.send({ device_id: 'laptop', mode: 'webpush', webpush: dead.subscription }, payload);
    routes.sink.send({ device_id: 'old', mode: 'fcm', fcm_token: 'tok' }, payload);
    await service.waitForPushes(2);
    await routes.idle();

    const push = service.received.find((p) => p.path === new URL(live.subscription.endpoint).pathname)!;
    // Sent whole, as given.
    expect(JSON.parse(decryptWebPush(push.body, live).toString('utf8'))).toEqual(payload);
    const jwt = verifyVapidAuthorization(push.headers.authorization);
    expect(jwt.publicKey).toBe(routes.vapidPublicKey);
    expect(jwt.claims.sub).toBe('https://iris.example.org');
    expect(push.headers.urgency).toBe('high');
    expect(gone).toEqual([{ device_id: 'laptop', endpoint: dead.subscription.endpoint }]);
    expect(service.received).toHaveLength(2);
  });
});

describe('pushLogToLines', () => {
  it('writes one line per event, skipping absent fields and quoting values with spaces', () => {
    const lines: string[] = [];
    const log = pushLogToLines((line) => lines.push(line));
    log('push.webpush.rejected', {
      origin: 'https://fcm.googleapis.com',
      status: 403,
      reason: 'bad jwt',
      to: undefined,
    });
    log('push.vapid.created');
    expect(lines).toEqual([
      'push.webpush.rejected origin=https://fcm.googleapis.com status=403 reason="bad jwt"',
      'push.vapid.created',
    ]);
  });
});

describe('VAPID subject', () => {
  it('accepts mailto: and public https origins, and falls back for anything push services refuse', () => {
    expect(vapidSubject('mailto:ops@example.org')).toBe('mailto:ops@example.org');
    expect(vapidSubject('ops@example.org')).toBe('mailto:ops@example.org');
    expect(vapidSubject('https://iris.example.org:8443/x')).toBe('https://iris.example.org:8443');
    expect(vapidSubject('http://iris.example.org')).toBe(DEFAULT_VAPID_SUBJECT);
    expect(vapidSubject('https://localhost:5173')).toBe(DEFAULT_VAPID_SUBJECT);
    expect(vapidSubject('')).toBe(DEFAULT_VAPID_SUBJECT);
    expect(vapidSubject(undefined)).toBe(DEFAULT_VAPID_SUBJECT);
  });
});
