/** Checks a `--gateway` URL: ws:// or wss://, with a host. Throws an Error with a one-line reason. */
export function parseUpstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('the gateway URL is not a valid URL (expected ws://host:port/path or wss://…)');
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new Error('the gateway URL must start with ws:// or wss://');
  }
  if (!url.hostname) throw new Error('the gateway URL has no host');
  if (url.hash) throw new Error('the gateway URL must not contain a #fragment');
  return url;
}

/** The URL without credentials or query, safe to print (a query may carry a token). */
export function describeUpstream(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function upstreamPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'wss:' ? 443 : 80;
}

/** The hostname as a socket API wants it: IPv6 literals without their brackets. */
export function upstreamHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
