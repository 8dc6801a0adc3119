// Addresses the service worker opens and reads: the app routes lanes in the hash (#/c/<chat>[/t/<thread>]).
import { isPairingUrl } from '../../src/lib/pairingLink';
import { laneAddress, laneOfPath, lanePath } from '../../src/protocol/lanes';

export interface LaneTarget {
  chat_id?: string;
  thread_id?: string;
  lane?: string;
  message_id?: string;
}

/** `/#/c/<chat>[/t/<thread>][?m=<message>]`, or the app's start when the push names no lane. */
export function laneUrl(target: LaneTarget): string {
  const address = laneAddress(target);
  if (!address) return '/';
  let path = lanePath(address);
  if (target.message_id) path += `?m=${encodeURIComponent(target.message_id)}`;
  return `/#${path}`;
}

/** The lane a window shows, read from its URL's hash; undefined for any other page. */
export function laneOfWindowUrl(url: string): string | undefined {
  let hash: string;
  try {
    hash = new URL(url).hash;
  } catch {
    return undefined;
  }
  const path = hash.replace(/^#/, '').split('?', 1)[0] ?? '';
  return laneOfPath(path)?.lane;
}

/**
 * A relay push's click URL is whatever the publisher chose: open it only when it is this app's own
 * origin (then it is one of our routes), never another site, and never the pairing screen (a click
 * must not replace the gateway and token).
 */
export function sameOriginUrl(candidate: string | undefined, origin: string): string | undefined {
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate, origin);
    return url.origin === origin && !isPairingUrl(url.href, origin) ? url.href : undefined;
  } catch {
    return undefined;
  }
}
