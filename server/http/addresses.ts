import { isIP } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

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
  const query =
    `url=${encodeURIComponent(`${wsOrigin}/ws`)}` + (token === undefined ? '' : `&token=${encodeURIComponent(token)}`);
  return `${origin}/#/pair?${query}`;
}

/**
 * The origins another device on the network can open: every external IPv4 address of this machine
 * when listening on all interfaces, the listening host when it is a specific non-loopback one.
 */
export function lanOrigins(
  host: string,
  port: number,
  secure: boolean,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const scheme = secure ? 'https' : 'http';
  if (LOOPBACKS.has(host)) return [];
  if (!WILDCARDS.has(host)) return [`${scheme}://${urlHost(host)}:${port}`];
  const found: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.internal || a.family !== 'IPv4' || a.address.startsWith('169.254.')) continue;
      found.push(`${scheme}://${a.address}:${port}`);
    }
  }
  return [...new Set(found)];
}

/** `--public-url`: the origin phones use (a reverse proxy's https address); only an origin, no path. */
export function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('needs a full address such as https://iris.example.org');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('needs an http:// or https:// address');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new Error('is the origin only (scheme, host and port), the app is served at its root');
  }
  return url.origin;
}
