// Test fixtures for the serving process: a tiny fake build, a self-signed certificate,
// raw HTTP requests (paths exactly as written, no URL normalization) and WebSocket helpers.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { encodeFrame } from '../../../src/protocol';
import { BUILD_STAMP } from '../build-stamp';

/** A marker that must never appear in a response: it lives next to dist/, not inside. */
export const SECRET = 'TOP-SECRET-OUTSIDE-DIST-7f3a';

export interface FakeDist {
  root: string;
  distDir: string;
  cleanup(): void;
}

/** A temp dir with `dist/` (the files a Vite + PWA build has) and a secret file beside it. */
export function makeFakeDist(): FakeDist {
  const root = mkdtempSync(join(tmpdir(), 'iris-dist-'));
  const distDir = join(root, 'dist');
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>Iris</title><div id="root"></div>');
  writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log("app");');
  writeFileSync(join(distDir, 'assets', 'index-def456.css'), 'body{margin:0}');
  writeFileSync(join(distDir, 'sw.js'), 'self.addEventListener("fetch",()=>{});');
  writeFileSync(join(distDir, 'manifest.webmanifest'), '{"name":"Iris"}');
  writeFileSync(join(distDir, BUILD_STAMP), '{}');
  writeFileSync(join(distDir, 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(distDir, '.env'), SECRET);
  writeFileSync(join(root, 'secret.txt'), SECRET);
  symlinkSync(join(root, 'secret.txt'), join(distDir, 'leak.txt'));
  symlinkSync(root, join(distDir, 'leakdir'));
  return { root, distDir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP request whose path goes on the wire exactly as given. */
export function rawRequest(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

/** A throwaway self-signed certificate for localhost and 127.0.0.1 (needs openssl). */
export function makeSelfSignedCert(dir: string): { certFile: string; keyFile: string; cert: Buffer; key: Buffer } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

/** Opens a WebSocket and collects every text frame it receives. */
export async function openSocket(
  url: string,
  options: WebSocket.ClientOptions = {},
  protocols: string[] = [],
): Promise<{ ws: WebSocket; texts: string[] }> {
  const ws = new WebSocket(url, protocols, options);
  const texts: string[] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) texts.push(data.toString());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, texts };
}

/** Resolves with the first received text frame whose `type` is one of `types`. */
export function nextFrameOfType(
  ws: WebSocket,
  types: string[],
  timeoutMs = 5_000,
): Promise<{ type: string; id?: number; payload: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${types.join('/')} frame within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as { type: string; id?: number; payload: Record<string, unknown> };
      if (types.includes(frame.type)) {
        clearTimeout(timer);
        ws.off('message', onMessage);
        resolve(frame);
      }
    };
    ws.on('message', onMessage);
  });
}

export function helloFrame(token: string, deviceId = 'test-device'): string {
  return encodeFrame({
    type: 'hello',
    id: 1,
    payload: {
      token,
      device_id: deviceId,
      device_name: 'vitest',
      caps: { min_protocol: 1, media: true, push: 'none' },
    },
  });
}

/** The HTTP status a WebSocket upgrade request gets when it is refused (101 if it is accepted). */
export function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      req.destroy();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (error) => reject(error));
  });
}

/** Resolves with the close code and reason once the socket is closed. */
export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}
