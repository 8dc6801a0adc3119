import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isSafeHost } from './security-headers';
import { startServer, type RunningServer } from './server';
import { makeFakeDist, rawRequest, type FakeDist } from './testing/fixtures';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('contentSecurityPolicy', () => {
  it('allows only the own origin, its WebSocket, and blob:/data: media', () => {
    const csp = directives(contentSecurityPolicy('localhost:8080', false));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:8080', 'wss://localhost:8080']);
    expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('manifest-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
  });

  it('never allows inline or evaluated script', () => {
    const policy = contentSecurityPolicy('localhost:8080', false);
    expect(policy).not.toContain('unsafe-eval');
    expect(directives(policy).get('script-src')).not.toContain("'unsafe-inline'");
    expect(directives(policy).get('style-src')).not.toContain("'unsafe-inline'");
  });

  it('names only wss: when served over TLS', () => {
    expect(directives(contentSecurityPolicy('iris.example:443', true)).get('connect-src')).toEqual([
      "'self'",
      'wss://iris.example:443',
    ]);
  });

  it('accepts IPv6 and plain hosts, and rejects a Host header that tries to add directives', () => {
    expect(isSafeHost('[::1]:8080')).toBe(true);
    expect(isSafeHost('192.168.1.20:8080')).toBe(true);
    expect(isSafeHost('iris.local')).toBe(true);
    for (const evil of ['evil.com; script-src *', 'a b', "x'", 'evil.com:80/path', '', 'http://x']) {
      expect(isSafeHost(evil)).toBe(false);
    }
    const policy = contentSecurityPolicy('evil.com; script-src *', false);
    expect(directives(policy).get('script-src')).toEqual(["'self'"]);
    expect(directives(policy).get('connect-src')).toEqual(["'self'"]);
    expect(policy).not.toContain('evil');
  });
});

describe('every response carries the security headers', () => {
  let dist: FakeDist;
  let server: RunningServer;

  beforeAll(async () => {
    dist = makeFakeDist();
    server = await startServer({
      distDir: dist.distDir,
      routes: [
        (req, res) => {
          if (req.url !== '/push/hello') return false;
          res.writeHead(200, { 'Content-Type': 'text/plain' }).end('hi');
          return true;
        },
      ],
    });
  });
  afterAll(async () => {
    await server.close();
    dist.cleanup();
  });

  function expectSecurityHeaders(headers: Record<string, string | string[] | undefined>) {
    const csp = directives(String(headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      `ws://127.0.0.1:${server.port}`,
      `wss://127.0.0.1:${server.port}`,
    ]);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-frame-options']).toBe('DENY');
    const features = String(headers['permissions-policy']).split(', ');
    expect(features).toContain('microphone=(self)');
    expect(features).toContain('camera=(self)');
    expect(features).toContain('geolocation=()');
    expect(features.filter((f) => !/^(microphone|camera)=/.test(f)).every((f) => f.endsWith('=()'))).toBe(true);
    // Plain http: no HSTS (it is sent over TLS only, see server.test.ts).
    expect(headers['strict-transport-security']).toBeUndefined();
  }

  it.each([
    ['200 file', '/', 'GET', 200, {}],
    ['200 asset', '/assets/index-abc123.js', 'GET', 200, {}],
    ['HEAD', '/', 'HEAD', 200, {}],
    ['SPA fallback', '/lane/x', 'GET', 200, { Accept: 'text/html' }],
    ['404', '/missing.png', 'GET', 404, {}],
    ['400', '/%', 'GET', 400, {}],
    ['405', '/', 'DELETE', 405, {}],
    ['extra route', '/push/hello', 'GET', 200, {}],
  ] as const)('%s', async (_name, path, method, status, headers) => {
    const res = await rawRequest(server.port, path, { method, headers: { ...headers } });
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
  });

  it('on a 304', async () => {
    const first = await rawRequest(server.port, '/');
    const res = await rawRequest(server.port, '/', { headers: { 'If-None-Match': first.headers.etag! } });
    expect(res.status).toBe(304);
    expectSecurityHeaders(res.headers);
  });

  it('on a refused WebSocket upgrade', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        );
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toMatch(/\r\nContent-Security-Policy: default-src 'self'; script-src 'self';/);
    expect(answer).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
    expect(answer).toContain('\r\nReferrer-Policy: no-referrer\r\n');
  });
});
