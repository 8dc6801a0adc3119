import { createECDH } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import { createFileExclusiveSync, PRIVATE_FILE_MODE } from './atomic-file';
import type { PushLog } from './types';

const VAPID_FILE_NAME = 'vapid.json';

/** Used when the operator gives no usable subject; push services only need a syntactically valid contact. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:admin@iris-web.invalid';

interface VapidKeys {
  /** Uncompressed P-256 point (65 bytes), base64url: the browser's `applicationServerKey`. */
  publicKey: string;
  /** P-256 private scalar (32 bytes), base64url. */
  privateKey: string;
}

export interface Vapid extends VapidKeys {
  /** `mailto:` address or `https:` URL the push service may contact (the JWT `sub`). */
  subject: string;
}

class VapidFileError extends Error {
  constructor(path: string, reason: string) {
    super(
      `${path} is not a valid VAPID key file (${reason}). Restore it from a backup, or move it away to make a new key pair ` +
        '(a new key pair invalidates every existing browser push subscription).',
    );
    this.name = 'VapidFileError';
  }
}

/**
 * The JWT `sub`: a `mailto:` or `https:` URL. web-push rejects anything else, and warns on every send for an
 * https localhost URL (Apple's push service refuses it), so those fall back to DEFAULT_VAPID_SUBJECT.
 */
export function vapidSubject(subjectOrOrigin: string | undefined): string {
  const value = subjectOrOrigin?.trim();
  if (!value) return DEFAULT_VAPID_SUBJECT;
  if (/^mailto:[^@\s]+@[^@\s]+$/i.test(value)) return value;
  if (/^[^@\s:/]+@[^@\s/]+$/.test(value)) return `mailto:${value}`;
  try {
    const url = new URL(value);
    const local = url.hostname === 'localhost' || url.hostname.endsWith('.localhost');
    if (url.protocol === 'https:' && !local) return url.origin;
  } catch {
    /* not a URL: fall through */
  }
  return DEFAULT_VAPID_SUBJECT;
}

function decodeKey(value: unknown, bytes: number, name: string, path: string): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new VapidFileError(path, `${name} is not a base64url string`);
  }
  const buf = Buffer.from(value, 'base64url');
  if (buf.length !== bytes) throw new VapidFileError(path, `${name} is ${buf.length} bytes, expected ${bytes}`);
  return buf;
}

function parseVapidFile(text: string, path: string): VapidKeys {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new VapidFileError(path, 'not JSON');
  }
  if (typeof data !== 'object' || data === null) throw new VapidFileError(path, 'not a JSON object');
  const { publicKey, privateKey } = data as Record<string, unknown>;
  const pub = decodeKey(publicKey, 65, 'publicKey', path);
  const priv = decodeKey(privateKey, 32, 'privateKey', path);
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(priv);
  } catch {
    throw new VapidFileError(path, 'privateKey is not a valid P-256 key');
  }
  if (!ecdh.getPublicKey().equals(pub)) throw new VapidFileError(path, 'publicKey does not belong to privateKey');
  return { publicKey: publicKey as string, privateKey: privateKey as string };
}

/**
 * Loads the server's VAPID key pair from `<dataDir>/vapid.json`, creating it (mode 0600, atomically) on first
 * start. A damaged file is an error, never silently replaced: new keys would orphan every subscription.
 */
export function loadOrCreateVapid(dataDir: string, options: { subject?: string; log?: PushLog } = {}): Vapid {
  const path = join(dataDir, VAPID_FILE_NAME);
  const subject = vapidSubject(options.subject);
  const fresh = webpush.generateVAPIDKeys();
  const created = createFileExclusiveSync(
    path,
    JSON.stringify(
      { publicKey: fresh.publicKey, privateKey: fresh.privateKey, created: new Date().toISOString() },
      null,
      2,
    ) + '\n',
  );
  if (created) {
    options.log?.('push.vapid.created');
    return { ...fresh, subject };
  }
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) {
    chmodSync(path, PRIVATE_FILE_MODE);
    options.log?.('push.vapid.permissions_fixed', { was: mode.toString(8) });
  }
  return { ...parseVapidFile(readFileSync(path, 'utf8'), path), subject };
}
