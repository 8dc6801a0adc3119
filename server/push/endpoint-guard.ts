/**
 * Where this server may POST a push: a push endpoint comes from an untrusted client (the relay's
 * unauthenticated subscribe, a device's hello), so without these checks the server is a request
 * forger for anything it can reach (loopback, the LAN, cloud metadata). An endpoint must be https on
 * port 443, name an allowed push-service host, and connect only to a public address: the address is
 * checked in the socket's own `lookup`, so the name cannot resolve to something else between the
 * check and the connection (DNS rebinding).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/** The browsers' own push services (Chrome/Edge-on-Android, Firefox, Edge/Windows, Safari). */
export const DEFAULT_PUSH_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
  'web.push.apple.com',
];

export interface EndpointPolicy {
  /** Host patterns: `name`, `*.name` (any subdomain of name) or `*` (any public host). */
  hosts: readonly string[];
  /** The one port push requests go to (443; tests of this module change it). */
  port: number;
  /**
   * Test only: origins (e.g. a fake push service on http://127.0.0.1:PORT) that are reached without
   * any of these checks. Never set from a command line.
   */
  testOrigins: readonly string[];
}

export function endpointPolicy(
  options: { hosts?: readonly string[]; testOrigins?: readonly string[]; port?: number } = {},
): EndpointPolicy {
  return {
    hosts: (options.hosts ?? DEFAULT_PUSH_HOSTS).map((h) => h.trim().toLowerCase()).filter((h) => h !== ''),
    port: options.port ?? 443,
    testOrigins: options.testOrigins ?? [],
  };
}

/** Reads a `--push-hosts` value: comma-separated host patterns. Throws on one that is not a host pattern. */
export function parsePushHosts(value: string): string[] {
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  if (hosts.length === 0)
    throw new Error('give at least one host (e.g. fcm.googleapis.com,*.push.apple.com), or * for any public host');
  for (const host of hosts) {
    if (host !== '*' && !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host)) {
      throw new Error(`"${host.slice(0, 80)}" is not a host name or *.domain pattern`);
    }
  }
  return hosts;
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** A test origin this policy reaches unchecked, or undefined. */
export function isTestOrigin(url: URL, policy: EndpointPolicy): boolean {
  return policy.testOrigins.includes(url.origin);
}

/** Why this server will not POST to `url` (before any DNS lookup), or undefined when it may try. */
export function endpointRefusal(url: URL, policy: EndpointPolicy): string | undefined {
  if (isTestOrigin(url, policy)) return undefined;
  if (url.protocol !== 'https:') return 'subscription.endpoint must be an https URL';
  if (url.username || url.password) return 'subscription.endpoint must not carry credentials';
  if ((url.port === '' ? 443 : Number(url.port)) !== policy.port)
    return `subscription.endpoint must use port ${policy.port}`;
  // URL has already turned every IPv4 spelling (0x7f.1, 2130706433, 0177.0.0.1…) into dotted decimal.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) {
    if (!policy.hosts.includes('*')) return 'subscription.endpoint must name a push service, not an address';
    if (!isPublicAddress(host)) return 'subscription.endpoint is not a public address';
    return undefined;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return 'subscription.endpoint is not a public address';
  if (!policy.hosts.some((pattern) => hostMatches(host, pattern)))
    return 'subscription.endpoint is not a known push service';
  return undefined;
}

function ipv4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** The 16 bytes of an IPv6 address (with an embedded IPv4 tail or `::`). */
function ipv6Bytes(ip: string): number[] {
  let text = ip.toLowerCase().split('%', 1)[0]!;
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    tail = ipv4Bytes(v4[1]!);
    text = text.slice(0, -v4[1]!.length) + '0:0';
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = groups.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function v4IsPublic([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 100 && b! >= 64 && b! <= 127) return false; // CGNAT 100.64/10
  if (a === 169 && b === 254) return false; // link-local (cloud metadata)
  if (a === 172 && b! >= 16 && b! <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // TEST-NET-2
  if (a === 203 && b === 0 && c === 113) return false; // TEST-NET-3
  if (a! >= 224) return false; // multicast, reserved, broadcast
  return true;
}

/**
 * Whether `ip` is an ordinary public unicast address. Refused: loopback, private, link-local, CGNAT,
 * ULA, multicast, 0.0.0.0/8, documentation and reserved ranges, and any IPv6 form that carries an IPv4
 * address (mapped, compatible, NAT64, 6to4, Teredo): only 2000::/3 global unicast passes for IPv6.
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip.split('%', 1)[0]!);
  if (family === 4) return v4IsPublic(ipv4Bytes(ip));
  if (family !== 6) return false;
  const b = ipv6Bytes(ip);
  if ((b[0]! & 0xe0) !== 0x20) return false; // outside 2000::/3 (::1, ::ffff:…, fc00::/7, fe80::/10, ff00::/8, 64:ff9b::/96…)
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false; // documentation 2001:db8::/32
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3]! < 0x02) return false; // Teredo, benchmarking 2001:0::/31
  if (b[0] === 0x20 && b[1] === 0x02) return false; // 6to4 (embeds an IPv4 address)
  return true;
}

type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A socket `lookup` that hands the connection only public addresses; an error when there are none. */
function publicOnlyLookup(resolve: Resolver = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(
      hostname,
      { family: options.family as number | undefined, hints: options.hints, all: true } as LookupAllOptions,
      (err, addresses) => {
        const done = callback as (
          err: NodeJS.ErrnoException | null,
          address: string | LookupAddress[],
          family?: number,
        ) => void;
        if (err) return done(err, '', 0);
        const allowed = addresses.filter((a) => isPublicAddress(a.address));
        if (allowed.length === 0) {
          const refused: NodeJS.ErrnoException = new Error(
            `${hostname} does not resolve to a public address; not connecting`,
          );
          refused.code = 'EPUSHADDRESS';
          return done(refused, '', 0);
        }
        if ((options as { all?: boolean }).all) done(null, allowed);
        else done(null, allowed[0]!.address, allowed[0]!.family);
      },
    );
  };
}

/** The agent push requests use: every connection's address passes `publicOnlyLookup`. */
export function createPushAgent(resolve?: Resolver): Agent {
  return new Agent({ keepAlive: true, maxSockets: 16, lookup: publicOnlyLookup(resolve) });
}
