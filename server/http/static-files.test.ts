import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server';
import { makeFakeDist, rawRequest, SECRET, type FakeDist } from './testing/fixtures';

let dist: FakeDist;
let server: RunningServer;

beforeAll(async () => {
  dist = makeFakeDist();
  server = await startServer({ distDir: dist.distDir, host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server.close();
  dist.cleanup();
});

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.port, path, { headers });

describe('static files', () => {
  it('serves index.html at / with a content type and revalidation caching', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers['last-modified']).toBeTruthy();
    expect(res.body).toContain('<div id="root">');
  });

  it('caches hashed assets for a year, immutable', async () => {
    const js = await get('/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log("app");');
    const css = await get('/assets/index-def456.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('never lets the service worker, the manifest or index.html be cached without revalidation', async () => {
    const sw = await get('/sw.js');
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const index = await get('/index.html');
    expect(index.headers['cache-control']).toBe('no-cache');
    const icon = await get('/icon-192.png');
    expect(icon.headers['content-type']).toBe('image/png');
  });

  it('answers 304 to a matching If-None-Match or a fresh If-Modified-Since', async () => {
    const first = await get('/sw.js');
    const byEtag = await get('/sw.js', { 'If-None-Match': first.headers.etag! });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body).toBe('');
    expect(byEtag.headers.etag).toBe(first.headers.etag);
    const byDate = await get('/sw.js', { 'If-Modified-Since': first.headers['last-modified']! });
    expect(byDate.status).toBe(304);
    const stale = await get('/sw.js', { 'If-None-Match': 'W/"0-0"' });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const res = await rawRequest(server.port, '/assets/index-abc123.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String('console.log("app");'.length));
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('serves index.html for app routes a browser navigates to (SPA fallback)', async () => {
    const res = await get('/lane/abc-123', { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(res.body).toContain('<div id="root">');
  });

  it('answers 404, not index.html, for missing files and for non-navigation requests', async () => {
    expect((await get('/missing.js', { Accept: 'text/html' })).status).toBe(404);
    expect((await get('/assets/index-000000.js', { Accept: 'text/html' })).status).toBe(404);
    expect((await get('/lane/abc', { Accept: 'application/json' })).status).toBe(404);
    expect((await get('/lane/abc')).status).toBe(404);
    const missing = await get('/nope.css');
    expect(missing.body).toBe('Not found');
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('refuses methods other than GET and HEAD', async () => {
    const res = await rawRequest(server.port, '/', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('path traversal', () => {
  // Every way out of dist/ a request could try; none may return the file beside dist/.
  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/assets%2f..%2f..%2fsecret.txt',
    '/%252e%252e/secret.txt',
    '/..%5csecret.txt',
    '/..\\secret.txt',
    '/%2e%2e%5csecret.txt',
    '/secret.txt%00.js',
    '/leak.txt',
    '/leakdir/secret.txt',
    '/leakdir/dist/../secret.txt',
    '/.env',
    '/assets/%2e%2e/.env',
    'http://127.0.0.1/../secret.txt',
    '//../secret.txt',
    '/%c0%ae%c0%ae/secret.txt',
    '/%',
  ];

  it.each(attempts)('does not serve anything outside dist for %s', async (path) => {
    for (const accept of ['*/*', 'text/html']) {
      const res = await get(path, { Accept: accept });
      expect(res.body).not.toContain(SECRET);
      if (res.status === 200)
        expect(res.body).toContain('<div id="root">'); // only ever the SPA fallback
      else expect([400, 404]).toContain(res.status);
    }
  });

  it('still serves a file whose encoded name stays inside dist', async () => {
    const res = await get('/assets/%69ndex-abc123.js');
    expect(res.status).toBe(200);
    expect(res.body).toBe('console.log("app");');
  });
});
