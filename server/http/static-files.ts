import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlibConstants, createBrotliCompress, createGzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, posix, sep } from 'node:path';
import { contentTypeFor } from './content-types';
import { isCompressible, MIN_COMPRESS_BYTES, negotiateCoding, SUFFIX, type Coding } from './encoding';

/** Hashed build output: its name changes whenever its bytes do, so it may be cached forever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the service worker, the manifest, icons): revalidate every time. */
const REVALIDATE = 'no-cache';

type Resolved =
  { kind: 'file'; path: string } | { kind: 'bad-request' } | { kind: 'not-found'; extensionless: boolean };

/**
 * Serves the built app from `distDir`: GET and HEAD, ETag/Last-Modified revalidation,
 * long-lived caching for `/assets/`, text compressed (brotli or gzip, as the request accepts;
 * the build's precompressed copies when there are), and index.html for extensionless paths a browser
 * navigates to (the app's client-side routes). Nothing outside `distDir` is ever read:
 * the path is decoded, normalized, and the real path (symlinks resolved) must stay inside.
 */
export function createStaticHandler(distDir: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const rootPromise = realpath(distDir);
  // A dist folder that disappears (a test's temp dir, a redeploy) must not be an unhandled rejection.
  rootPromise.catch(() => undefined);

  return async function serveStatic(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    let root: string;
    try {
      root = await rootPromise;
    } catch {
      sendText(res, 503, 'The app is not built or its folder is gone');
      return;
    }
    const resolved = await resolveRequestPath(root, req.url ?? '/');
    if (resolved.kind === 'bad-request') {
      sendText(res, 400, 'Bad request');
      return;
    }
    if (resolved.kind === 'file') {
      const served = await serveFile(req, res, resolved.path, cacheControlFor(resolved.path, root));
      if (served) return;
    }
    const extensionless = resolved.kind === 'not-found' ? resolved.extensionless : false;
    if (extensionless && acceptsHtml(req)) {
      const served = await serveFile(req, res, join(root, 'index.html'), REVALIDATE, { Vary: 'Accept' });
      if (served) return;
    }
    sendText(res, 404, 'Not found', extensionless ? { Vary: 'Accept' } : {});
  };
}

async function resolveRequestPath(root: string, url: string): Promise<Resolved> {
  let rawPath = url.split(/[?#]/, 1)[0] ?? '';
  if (!rawPath.startsWith('/')) {
    // absolute-form request target (`GET http://host/path`), allowed by HTTP/1.1
    try {
      rawPath = new URL(rawPath).pathname;
    } catch {
      return { kind: 'bad-request' };
    }
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad-request' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad-request' };

  // posix.normalize of an absolute path never climbs above '/', so `/../x` becomes `/x`.
  const normalized = posix.normalize(decoded);
  const segments = normalized.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const extensionless = !last.includes('.');
  // Dotfiles are never part of the app (except the standard .well-known folder).
  if (segments.some((s) => s.startsWith('.') && s !== '.well-known')) return { kind: 'not-found', extensionless };

  const relative = normalized.endsWith('/') ? [...segments, 'index.html'] : segments;
  const candidate = join(root, ...relative);
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return { kind: 'not-found', extensionless };
  }
  if (!real.startsWith(root + sep)) return { kind: 'not-found', extensionless };
  return { kind: 'file', path: real };
}

function cacheControlFor(filePath: string, root: string): string {
  return filePath.startsWith(join(root, 'assets') + sep) ? IMMUTABLE : REVALIDATE;
}

function acceptsHtml(req: IncomingMessage): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes('text/html');
}

/** Sends one regular file; returns false (having sent nothing) if it is missing or not a file. */
async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  filePath: string,
  cacheControl: string,
  extraHeaders: Record<string, string> = {},
): Promise<boolean> {
  let file: FileHandle;
  try {
    file = await open(filePath, 'r');
  } catch {
    return false;
  }
  let copy: FileHandle | undefined;
  try {
    const stats = await file.stat();
    if (!stats.isFile()) return false;
    const compressible = isCompressible(filePath);
    const chosen = compressible ? await chooseRepresentation(req, filePath, stats) : IDENTITY;
    if (chosen.kind === 'precompressed') {
      try {
        copy = await open(chosen.path, 'r');
      } catch {
        copy = undefined; // removed since we looked: the file itself still answers
      }
    }
    const sent: Representation = chosen.kind === 'precompressed' && !copy ? IDENTITY : chosen;
    const headers: Record<string, string> = {
      ...extraHeaders,
      ...(compressible
        ? { Vary: extraHeaders.Vary ? `${extraHeaders.Vary}, Accept-Encoding` : 'Accept-Encoding' }
        : {}),
      'Cache-Control': cacheControl,
      // One ETag per coding: a cache holding the gzip copy must not revalidate it as the brotli one.
      ETag: etagOf(stats, sent.kind === 'identity' ? undefined : sent.coding),
      'Last-Modified': stats.mtime.toUTCString(),
    };
    if (isNotModified(req, stats, headers.ETag!)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const length =
      sent.kind === 'identity' ? stats.size : sent.kind === 'precompressed' ? (await copy!.stat()).size : undefined;
    res.writeHead(200, {
      ...headers,
      'Content-Type': contentTypeFor(filePath),
      ...(sent.kind === 'identity' ? {} : { 'Content-Encoding': sent.coding }),
      ...(length === undefined ? {} : { 'Content-Length': length }),
    });
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    const source = (copy ?? file).createReadStream({ autoClose: false });
    const body = sent.kind === 'on-the-fly' ? pipeline(source, compressorFor(sent.coding), res) : pipeline(source, res);
    await body.catch(() => res.destroy());
    return true;
  } finally {
    await copy?.close().catch(() => undefined);
    await file.close().catch(() => undefined);
  }
}

type Representation =
  | { kind: 'identity' }
  | { kind: 'precompressed'; coding: Coding; path: string }
  | { kind: 'on-the-fly'; coding: Coding };

const IDENTITY: Representation = { kind: 'identity' };

/**
 * The best representation of a text file for this request: the build's .br/.gz copy when the request
 * accepts it, else compression on the fly for a file big enough to gain from it (files the build did
 * not write, e.g. pages added after it), else the file itself. A Range request always gets the file
 * itself, so byte ranges keep meaning the file's bytes.
 */
async function chooseRepresentation(req: IncomingMessage, filePath: string, stats: Stats): Promise<Representation> {
  if (req.headers.range !== undefined) return IDENTITY;
  const acceptEncoding = req.headers['accept-encoding'];
  if (acceptEncoding === undefined) return IDENTITY;
  const precompressed: Coding[] = [];
  for (const coding of CODINGS) if (await isFreshCopy(filePath + SUFFIX[coding], stats)) precompressed.push(coding);
  if (precompressed.length > 0) {
    const coding = negotiateCoding(acceptEncoding, precompressed);
    if (coding !== 'identity') return { kind: 'precompressed', coding, path: filePath + SUFFIX[coding] };
  }
  if (stats.size < MIN_COMPRESS_BYTES) return IDENTITY;
  const coding = negotiateCoding(acceptEncoding, CODINGS);
  return coding === 'identity' ? IDENTITY : { kind: 'on-the-fly', coding };
}

const CODINGS: readonly Coding[] = ['br', 'gzip'];

/** A copy the build wrote beside the file: a regular file (not a link out of dist), not older than the file. */
async function isFreshCopy(copyPath: string, original: Stats): Promise<boolean> {
  try {
    const stats = await lstat(copyPath);
    // A millisecond's slack: setting a time (utimes, cp -p) does not keep it exactly.
    return stats.isFile() && stats.mtimeMs >= original.mtimeMs - 1;
  } catch {
    return false;
  }
}

function compressorFor(coding: Coding): Transform {
  // Fast settings: this runs per request (the build's copies use the slowest, smallest ones).
  return coding === 'br'
    ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : createGzip({ level: 6 });
}

function etagOf(stats: Stats, coding?: Coding): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${coding ? `-${coding}` : ''}"`;
}

function isNotModified(req: IncomingMessage, stats: Stats, etag: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const strip = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => strip(tag) === strip(etag));
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(stats.mtimeMs / 1000) * 1000 <= since;
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}
