/**
 * Test-only: the browser's half of Web Push encryption, written from RFC 8291 (Message Encryption for
 * Web Push) and RFC 8188 (aes128gcm), independent of the web-push library it checks.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import type { WebPushSubscription } from '../../../src/protocol';

/** A user agent's push keys, as a browser makes them for `pushManager.subscribe`. */
export interface TestSubscriber {
  ecdh: ECDH;
  /** ua_public: the uncompressed P-256 point (65 bytes). */
  publicKey: Buffer;
  authSecret: Buffer;
  subscription: WebPushSubscription;
}

export function createTestSubscriber(endpoint: string): TestSubscriber {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    ecdh,
    publicKey,
    authSecret,
    subscription: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: publicKey.toString('base64url'), auth: authSecret.toString('base64url') },
    },
  };
}

const HEADER_FIXED_BYTES = 16 + 4 + 1; // salt, rs, idlen
const TAG_BYTES = 16;

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** Decrypts an aes128gcm Web Push body for `subscriber`; throws if anything does not authenticate. */
export function decryptWebPush(
  body: Buffer,
  subscriber: Pick<TestSubscriber, 'ecdh' | 'publicKey' | 'authSecret'>,
): Buffer {
  if (body.length < HEADER_FIXED_BYTES) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65) throw new Error(`keyid is ${idlen} bytes; Web Push puts the 65-byte sender public key there`);
  const senderPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (rs <= TAG_BYTES + 1) throw new Error(`record size ${rs} too small`);

  // RFC 8291 §3.3-3.4: IKM from the ECDH secret, keyed by the auth secret and bound to both public keys.
  const ecdhSecret = subscriber.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, senderPublic]);
  const ikm = hkdf(subscriber.authSecret, ecdhSecret, keyInfo, 32);
  // RFC 8188 §2.2-2.3: content encryption key and nonce from the salt.
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const baseNonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);

  const plain: Buffer[] = [];
  let seq = 0;
  for (let offset = 0; offset < ciphertext.length; offset += rs, seq++) {
    const record = ciphertext.subarray(offset, offset + rs);
    const last = offset + rs >= ciphertext.length;
    const nonce = Buffer.from(baseNonce);
    // The record sequence number is XORed into the nonce's low bits (seq < 2^32 here, so the last 4 bytes).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_BYTES)), decipher.final()]);
    // Padding: content, then a delimiter (0x02 last record, 0x01 otherwise), then zeros.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const delimiter = padded[end];
    if (delimiter !== (last ? 0x02 : 0x01)) throw new Error(`bad padding delimiter ${delimiter} in record ${seq}`);
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain);
}
