// The serving process mounts the push endpoints (issue 7): the VAPID key and the ntfy relay in demo and
// proxy mode, the demo gateway's push sink, and the gone handler that forgets a dead subscription.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_ID } from '../gateway';
import { TestClient } from '../gateway/testclient';
import { createTestSubscriber, decryptWebPush } from '../push/testing/decrypt';
import { startFakePushService } from '../push/testing/fake-push-service';
import { startServer, type RunningServer, type ServerOptions } from './server';
import { makeFakeDist, rawRequest } from './testing/fixtures';

const token = 'push-mount-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Partial<ServerOptions>): Promise<RunningServer> {
  const dist = makeFakeDist();
  cleanups.push(() => dist.cleanup());
  const server = await startServer({ distDir: dist.distDir, host: '127.0.0.1', port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'iris-push-mount-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('push endpoints in the serving process', () => {
  it('demo mode: serves the VAPID key (kept across restarts) before the static files', async () => {
    const dataDir = tempDir();
    const first = await start({ token, dataDir });
    const res = await rawRequest(first.port, '/push/vapid-public-key');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeDefined();
    const { publicKey } = JSON.parse(res.body) as { publicKey: string };
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await rawRequest(first.port, '/push/nothing-here')).status).toBe(404);
    await first.close();
    const second = await start({ token, dataDir });
    expect(JSON.parse((await rawRequest(second.port, '/push/vapid-public-key')).body)).toEqual({ publicKey });
  });

  it('proxy mode: the relay still answers (unknown topic → 404) and the key is served', async () => {
    const server = await start({ upstream: 'ws://127.0.0.1:9/ws', dataDir: tempDir() });
    expect(server.gateway).toBeUndefined();
    expect(server.push).toBeDefined();
    expect((await rawRequest(server.port, '/push/vapid-public-key')).status).toBe(200);
    expect((await rawRequest(server.port, '/push/ntfy/unknowntopic0123', { method: 'POST' })).status).toBe(404);
  });

  it('without a data dir (or with push: false) nothing is mounted: /push falls through to the app', async () => {
    const server = await start({ token });
    expect(server.push).toBeUndefined();
    const off = await start({ token, dataDir: tempDir(), push: false });
    expect(off.push).toBeUndefined();
    expect((await rawRequest(off.port, '/push/vapid-public-key')).body).not.toContain('publicKey');
  });

  it('the demo gateway pushes through the mounted sink; a 410 makes it forget the subscription', async () => {
    const service = await startFakePushService();
    cleanups.push(() => service.close());
    const server = await start({ token, dataDir: tempDir(), push: { testPushOrigins: [service.origin], retries: 0 } });
    const subscriber = createTestSubscriber(service.endpoint(410));
    const device = await TestClient.paired(server.wsUrl, {
      token,
      device_id: 'phone',
      caps: { min_protocol: 1, media: true, push: 'webpush' },
      extra: { webpush: subscriber.subscription },
    });
    cleanups.push(() => device.ws.close());
    expect(server.gateway!.store.devices.get('phone')?.target.mode).toBe('webpush');
    // Approval is pushed even to a live device.
    device.send('message.send', { text: '/approve make deploy', client_id: 'c1' }, { id: 2, chat_id: DEFAULT_CHAT_ID });
    const [push] = await service.waitForPushes(1);
    const message = JSON.parse(decryptWebPush(push!.body, subscriber).toString('utf8')) as Record<string, unknown>;
    expect(message).toMatchObject({ kind: 'approval', lane: DEFAULT_CHAT_ID });
    await server.push!.idle();
    expect(server.gateway!.store.devices.get('phone')?.target).toEqual({ device_id: 'phone', mode: 'none' });
  });
});
