// The SHA-256 an upload's end names (spec README §10), as hex. WebCrypto's digest exists only in a
// secure context; on a plain-http page (a phone on the LAN link) @noble/hashes computes it instead,
// loaded only there.

import { toHex } from './hex';

export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = crypto.subtle
    ? new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
    : (await import('@noble/hashes/sha2.js')).sha256(bytes);
  return toHex(digest);
}
