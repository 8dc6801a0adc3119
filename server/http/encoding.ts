// Content coding for the static files: which files are text worth compressing, which coding a
// request accepts (Accept-Encoding with q-values), and the file suffix of each precompressed copy.
// Shared by the build (which writes the .br and .gz copies) and the serving process.
import { extname } from 'node:path';

export type Coding = 'br' | 'gzip';

/** The suffix of a file's precompressed copy, written beside it by the build. */
export const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * Text formats the build emits. Everything else (PNG, JPEG, WebP, WOFF2, audio, video) is already
 * compressed: compressing it again costs CPU and gains nothing, so it is always sent as it is.
 */
const TEXT_EXTENSIONS = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.xml',
  '.svg',
]);

export function isCompressible(filePath: string): boolean {
  return TEXT_EXTENSIONS.has(extname(filePath).toLowerCase());
}

/** Below this, a compressed response saves less than its headers and framing cost. */
export const MIN_COMPRESS_BYTES = 1024;

/** Preference when a request rates codings equally: brotli is smaller than gzip for the same text. */
const PREFERENCE: (Coding | 'identity')[] = ['br', 'gzip', 'identity'];

/**
 * The coding to send, among `available` (plus identity, always available), for an Accept-Encoding
 * header (RFC 9110 §12.5.3): the highest q-value wins, `*` rates every coding not named, q=0 refuses
 * one, and identity is acceptable unless refused. No header, or one refusing everything we have,
 * gets identity: sending the file as it is beats a 406 for a static asset.
 */
export function negotiateCoding(acceptEncoding: string | undefined, available: readonly Coding[]): Coding | 'identity' {
  if (acceptEncoding === undefined) return 'identity';
  const rated = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    // `x-gzip` is gzip's old name (RFC 9110 §8.4.1.3).
    rated.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const wildcard = rated.get('*');
  const qOf = (coding: Coding | 'identity'): number => {
    const q = rated.get(coding) ?? wildcard;
    if (q !== undefined) return q;
    return coding === 'identity' ? 0.001 : 0; // identity is acceptable when not named, lowest
  };
  let best: Coding | 'identity' = 'identity';
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (coding !== 'identity' && !available.includes(coding)) continue;
    const q = qOf(coding);
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}
