// Random ids (device, tab, client_id, media_ref) also where `crypto.randomUUID` is missing: browsers
// offer it only in a secure context, and a phone opening `npm start`'s LAN link (plain http) is not one.
// There pairing failed with "crypto.randomUUID is not a function". getRandomValues is offered everywhere.

import { toHex } from './hex';

/** A random version-4 UUID. */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 4122 variant
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
