import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPushAgent,
  DEFAULT_PUSH_HOSTS,
  endpointPolicy,
  endpointRefusal,
  isPublicAddress,
  parsePushHosts,
} from './endpoint-guard';
import { createPushRoutes } from './routes';
import { createTestSubscriber } from './testing/decrypt';
import { startFakePushService, type FakePushService } from './testing/fake-push-service';
import { serveOnLoopback } from './testing/serve';
import { loadOrCreateVapid, type Vapid } from './vapid';
import { createWebPushSender, type WebPushSender } from './webpush-sender';

describe('public addresses', () => {
  it('refuses loopback, private, link-local, CGNAT, ULA, multicast, 0/8 and IPv4 carried in IPv6', () => {
    const refused = [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:8.8.8.8',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      '2002:7f00:1::1',
      'not an ip',
      '',
    ];
    for (const ip of refused) expect(isPublicAddress(ip), ip).toBe(false);
    for (const ip of [
      '8.8.8.8',
      '142.250.74.106',
      '100.63.255.255',
      '100.128.0.1',
      '172.32.0.1',
      '2a00:1450:4001:80b::200a',
      '2606:4700::1111',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
  });
});

describe('endpoint policy', () => {
  const policy = endpointPolicy();
  const refusal = (url: string) => endpointRefusal(new URL(url), policy);

  it("by default only the browsers' push services, over https on port 443", () => {
    expect(DEFAULT_PUSH_HOSTS).toEqual([
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      '*.notify.windows.com',
      '*.push.apple.com',
      'web.push.apple.com',
    ]);
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
      'https://web.push.apple.com/QF',
      'https://api.push.apple.com:443/x',
      'https://FCM.googleapis.com./fcm/send/x',
    ]) {
      expect(refusal(ok), ok).toBeUndefined();
    }
    expect(refusal('https://evil.example/x')).toBe('subscription.endpoint is not a known push service');
    expect(refusal('https://notify.windows.com/x')).toBe('subscription.endpoint is not a known push service');
    expect(refusal('https://fcm.googleapis.com.evil.example/x')).toBe(
      'subscription.endpoint is not a known push service',
    );
    expect(refusal('https://fcm.googleapis.com:8443/x')).toBe('subscription.endpoint must use port 443');
    expect(refusal('http://fcm.googleapis.com/x')).toBe('subscription.endpoint must be an https URL');
    expect(refusal('https://u:p@fcm.googleapis.com/x')).toBe('subscription.endpoint must not carry credentials');
    expect(refusal('https://142.250.74.106/x')).toBe('subscription.endpoint must name a push service, not an address');
  });

  it('--push-hosts: names, *.domain patterns or *; anything else is an error', () => {
    expect(parsePushHosts(' push.example.org , *.Push.Example.net ')).toEqual([
      'push.example.org',
      '*.push.example.net',
    ]);
    expect(parsePushHosts('*')).toEqual(['*']);
    expect(() => parsePushHosts('')).toThrow(/at least one host/);
    expect(() => parsePushHosts('http://x.example')).toThrow(/not a host name/);
    expect(() => parsePushHosts('localhost')).toThrow(/not a host name/);
    const any = endpointPolicy({ hosts: ['*'] });
    expect(endpointRefusal(new URL('https://142.250.74.106/x'), any)).toBeUndefined();
    expect(endpointRefusal(new URL('https://127.0.0.1/x'), any)).toBe('subscription.endpoint is not a public address');
    expect(endpointRefusal(new URL('https://localhost/x'), any)).toBe('subscription.endpoint is not a public address');
  });
});

describe('no request reaches this machine through a push endpoint', () => {
  let listener: Server;
  let port: number;
  let connections: number;
  let dataDir: string;
  let vapid: Vapid;
  let logs: string[];
  const senders: WebPushSender[] = [];
  const sockets = new Set<Socket>();

  beforeEach(async () => {
    connections = 0;
    logs = [];
    // Dual-stack: 127.0.0.1, ::1 and ::ffff:127.0.0.1 all land here. Any connection at all is a failure.
    listener = createServer((socket) => {
      connections++;
      sockets.add(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
    port = (listener.address() as AddressInfo).port;
    dataDir = mkdtempSync(join(tmpdir(), 'iris-ssrf-'));
    vapid = loadOrCreateVapid(dataDir, { subject: 'mailto:ops@example.org' });
  });

  afterEach(async () => {
    for (const sender of senders.splice(0)) sender.close();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  function sender(
    options: Parameters<typeof endpointPolicy>[0],
    resolve?: Parameters<typeof createPushAgent>[0],
  ): WebPushSender {
    const s = createWebPushSender({
      vapid,
      retries: 2,
      retryDelayMs: 1,
      timeoutMs: 2_000,
      endpoints: endpointPolicy(options),
      ...(resolve ? { agent: createPushAgent(resolve) } : {}),
      log: (event, fields) => logs.push(`${event} ${JSON.stringify(fields)}`),
    });
    senders.push(s);
    return s;
  }

  const job = (endpoint: string) => ({
    subscription: createTestSubscriber(endpoint).subscription,
    json: '{}',
    delivery: { ttl: 60, urgency: 'normal' as const },
  });

  it('every spelling of loopback and "this host" is refused, even with any host allowed on its port', async () => {
    // The port rule alone would refuse all of these: the address check is tested on the listener's own port.
    const s = sender({ hosts: ['*'], port });
    const spellings = [
      '127.0.0.1',
      '127.1',
      '0x7f000001',
      '2130706433',
      '0177.0.0.1',
      '0x7f.0.0.1',
      '127.000.000.001',
      '0.0.0.0',
      '0',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::127.0.0.1]',
      '[::]',
      '[64:ff9b::7f00:1]',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
    ];
    for (const host of spellings) expect(s.enqueue(job(`https://${host}:${port}/wpush`)), host).toBe(false);
    await s.idle();
    expect(connections).toBe(0);
    expect(logs.filter((l) => l.startsWith('push.webpush.invalid_subscription'))).toHaveLength(spellings.length);
  });

  it('a name that resolves to loopback is refused when connecting, once, with no retries', async () => {
    const toLoopback = (
      _host: string,
      _o: unknown,
      cb: (err: null, a: { address: string; family: number }[]) => void,
    ) =>
      cb(null, [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
        { address: '::ffff:127.0.0.1', family: 6 },
      ]);
    const s = sender({ hosts: ['push.example.org'], port }, toLoopback as never);
    expect(s.enqueue(job(`https://push.example.org:${port}/wpush`))).toBe(true);
    await s.idle();
    expect(connections).toBe(0);
    const attempts = logs.filter((l) => l.startsWith('push.webpush.'));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatch(/^push\.webpush\.rejected .*does not resolve to a public address/);
  });

  it("the relay's subscribe refuses such endpoints, so nothing is kept to post to", async () => {
    const routes = createPushRoutes({ dataDir, pushHosts: ['*'] });
    const server = await serveOnLoopback(routes.handle);
    try {
      for (const endpoint of [
        `https://127.0.0.1:${port}/x`,
        'https://[::ffff:169.254.169.254]/latest/meta-data',
        'https://10.0.0.1/x',
        'http://fcm.googleapis.com/x',
      ]) {
        const res = await fetch(`${server.origin}/push/ntfy-subscribe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ topic: 'a'.repeat(22), subscription: createTestSubscriber(endpoint).subscription }),
        });
        expect(res.status, endpoint).toBe(400);
      }
      expect(routes.relay.store.has('a'.repeat(22))).toBe(false);
    } finally {
      await routes.close();
      await server.close();
    }
  });

  it("the tests' fake push service on loopback is reached only through the test's own option", async () => {
    const service: FakePushService = await startFakePushService();
    try {
      const guarded = sender({});
      expect(guarded.enqueue(job(service.endpoint()))).toBe(false);
      await guarded.idle();
      expect(service.received).toHaveLength(0);
      const allowed = sender({ testOrigins: [service.origin] });
      expect(allowed.enqueue(job(service.endpoint()))).toBe(true);
      await service.waitForPushes(1);
      // Only that origin: another port on the same loopback address is still refused.
      expect(allowed.enqueue(job(`http://127.0.0.1:${port}/wpush`))).toBe(false);
      await allowed.idle();
      expect(connections).toBe(0);
    } finally {
      await service.close();
    }
  });
});
