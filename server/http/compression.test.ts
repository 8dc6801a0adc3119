import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateCoding } from './encoding';
import { precompressDir } from './precompress';
import { startServer, type RunningServer } from './server';

// Text big and varied enough that compressing it pays (and on-the-fly compression applies).
const APP_JS = Array.from(
  { length: 400 },
  (_, i) => `export function f${i}(x){return x*${i}+"${'ab'.repeat(i % 7)}";}`,
).join('\n');
const INDEX_HTML = `<!doctype html><title>Iris</title><div id="root"></div>${'<!-- padding for a real page -->'.repeat(60)}`;
const LATE_CSS = Array.from({ length: 200 }, (_, i) => `.c${i}{margin:${i}px}`).join('\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4096, 7)]);

let root: string;
let dist: string;
let server: RunningServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'iris-compress-'));
  dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX_HTML);
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), APP_JS);
  writeFileSync(join(dist, 'tiny.js'), 'x()');
  writeFileSync(join(dist, 'icon.png'), PNG);
  await precompressDir(dist);
  // Written after the build's step: no precompressed copy, so it is compressed per request.
  writeFileSync(join(dist, 'assets', 'late.css'), LATE_CSS);
  server = await startServer({ distDir: dist, host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode: Record<string, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

describe('precompressed text assets', () => {
  it('writes a .br and a .gz copy of each text file the build made, and none of images or tiny files', () => {
    expect(brotliDecompressSync(readFileSync(join(dist, 'assets', 'index-abc123.js.br'))).toString()).toBe(APP_JS);
    expect(gunzipSync(readFileSync(join(dist, 'index.html.gz'))).toString()).toBe(INDEX_HTML);
    expect(() => readFileSync(join(dist, 'icon.png.br'))).toThrow();
    expect(() => readFileSync(join(dist, 'tiny.js.gz'))).toThrow(); // 3 bytes: no coding makes it smaller
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
  ])(
    'answers Accept-Encoding: %s with %s: headers, length, and bytes that decode to the file',
    async (accept, coding) => {
      const res = await get('/assets/index-abc123.js', { 'Accept-Encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(APP_JS.length / 2);
      expect(decode[coding]!(res.body).toString()).toBe(APP_JS);
    },
  );

  it('sends the file as it is, still with Vary, to a client that accepts no coding we have', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'Accept-Encoding': 'identity' },
      { 'Accept-Encoding': 'deflate, zstd' },
      { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const res = await get('/assets/index-abc123.js', headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.body.toString()).toBe(APP_JS);
    }
  });

  it('gives each coding its own ETag, and revalidates each against its own', async () => {
    const br = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br' });
    const gz = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
    const plain = await get('/assets/index-abc123.js');
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    const revalidated = await get('/assets/index-abc123.js', {
      'Accept-Encoding': 'br',
      'If-None-Match': br.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    expect(revalidated.headers.vary).toBe('Accept-Encoding');
    // The gzip copy's tag does not validate the brotli one.
    const mismatched = await get('/assets/index-abc123.js', {
      'Accept-Encoding': 'br',
      'If-None-Match': gz.headers.etag!,
    });
    expect(mismatched.status).toBe(200);
    expect(mismatched.headers['content-encoding']).toBe('br');
  });

  it('answers HEAD with the compressed representation’s headers and no body', async () => {
    const get200 = await get('/index.html', { 'Accept-Encoding': 'br' });
    const head = await get('/index.html', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get200.headers['content-length']);
    expect(head.headers.etag).toBe(get200.headers.etag);
    expect(head.body.length).toBe(0);
  });

  it('answers a Range request with the file’s own bytes, never a slice of a compressed copy', async () => {
    const res = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br, gzip', Range: 'bytes=0-99' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe(APP_JS);
  });

  it('serves the SPA fallback compressed, varying on Accept and Accept-Encoding', async () => {
    const res = await get('/settings', { Accept: 'text/html', 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept, Accept-Encoding');
    expect(gunzipSync(res.body).toString()).toBe(INDEX_HTML);
  });

  it('never compresses an image, which is compressed already', async () => {
    const res = await get('/icon.png', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.equals(PNG)).toBe(true);
  });

  it('ignores a copy older than its file (a file changed after the build) and compresses on the fly', async () => {
    const path = join(dist, 'index.html');
    const old = new Date(Date.now() - 60_000);
    utimesSync(path + '.br', old, old);
    utimesSync(path + '.gz', old, old);
    try {
      const res = await get('/index.html', { 'Accept-Encoding': 'br' });
      expect(res.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(res.body).toString()).toBe(INDEX_HTML);
    } finally {
      const now = new Date();
      utimesSync(path + '.br', now, now);
      utimesSync(path + '.gz', now, now);
    }
  });
});

describe('compression on the fly', () => {
  it.each(['br', 'gzip'])('compresses a text file the build did not precompress (%s)', async (coding) => {
    const res = await get('/assets/late.css', { 'Accept-Encoding': coding });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers.etag).toMatch(new RegExp(`-${coding}"$`));
    expect(decode[coding]!(res.body).toString()).toBe(LATE_CSS);
  });

  it('leaves a file under the size floor as it is', async () => {
    const res = await get('/tiny.js', { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('x()');
  });
});

describe('Accept-Encoding negotiation', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['*', 'br'],
    ['gzip;q=1.0, br;q=0.9', 'gzip'],
    ['br;q=0.9, gzip;q=0.9', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=bogus, gzip;q=0.2', 'gzip'],
    // Nothing acceptable (gzip is not named): the file as it is rather than a 406.
    ['identity;q=0, br;q=0', 'identity'],
  ])('%s → %s', (header, expected) => {
    expect(negotiateCoding(header, both)).toBe(expected);
  });

  it('offers only what is available', () => {
    expect(negotiateCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateCoding('br', ['gzip'])).toBe('identity');
  });
});
