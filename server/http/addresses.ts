import { isIP } from 'node:net';

const WILDCARDS = new Set(['0.0.0.0', '::', '']);
const LOOPBACKS = new Set(['127.0.0.1', '::1', 'localhost']);

/** A host as it goes in a URL: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * The origin a person on this machine opens: `localhost` when the server listens on every
 * interface or on loopback (it is what a self-signed localhost certificate names, and it is a
 * secure context for service workers even over http), the listening host otherwise.
 */
export function localOrigin(host: string, port: number, secure: boolean): string {
  const name = WILDCARDS.has(host) || LOOPBACKS.has(host) ? 'localhost' : urlHost(host);
  return `${secure ? 'https' : 'http'}://${name}:${port}`;
}

/** The pairing link: the gateway URL and token travel in the #fragment, which browsers never send to a server. */
export function pairingLink(origin: string, token?: string): string {
  const wsOrigin = origin.replace(/^http/, 'ws');
  const query = `url=${encodeURIComponent(`${wsOrigin}/ws`)}` + (token === undefined ? '' : `&token=${encodeURIComponent(token)}`);
  return `${origin}/#/pair?${query}`;
}
