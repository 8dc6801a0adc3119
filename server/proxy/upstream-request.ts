import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

// Hop-by-hop and client-identity headers that must not travel to the gateway. The WebSocket
// `Connection: Upgrade` / `Upgrade: websocket` pair is end-to-end here and is kept.
// Cookies and Authorization are dropped: cookies for localhost are shared by every local app
// on every port, and the app authenticates inside the protocol (hello.token), not with them.
const DROPPED = new Set([
  'host',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'cookie',
  'authorization',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);

/**
 * The HTTP/1.1 upgrade request to send to the gateway: the app's own request, same header
 * order and spelling (so Sec-WebSocket-Key/-Version/-Extensions/-Protocol negotiate end to
 * end), aimed at the gateway's path and Host, plus X-Forwarded-* naming the real client.
 */
export function buildUpstreamRequest(req: IncomingMessage, upstream: URL, clientIsTls: boolean): Buffer {
  const lines = [`GET ${upstream.pathname}${upstream.search} HTTP/1.1`, `Host: ${upstream.host}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (!DROPPED.has(name.toLowerCase())) lines.push(`${name}: ${raw[i + 1]}`);
  }
  if (upstream.username) {
    const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
    lines.push(`Authorization: Basic ${Buffer.from(credentials).toString('base64')}`);
  }
  const clientAddress = req.socket.remoteAddress;
  if (clientAddress && isIP(clientAddress)) lines.push(`X-Forwarded-For: ${clientAddress}`);
  if (req.headers.host) lines.push(`X-Forwarded-Host: ${req.headers.host}`);
  lines.push(`X-Forwarded-Proto: ${clientIsTls ? 'https' : 'http'}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}
