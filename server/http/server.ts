import { existsSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';
import { join } from 'node:path';
import { createGateway, type Gateway, type GatewayOptions } from '../gateway/index';
import { createWsProxy, type WsProxy } from '../proxy/ws-proxy';
import { parseUpstreamUrl } from '../proxy/upstream-url';
import { createPushRoutes, type PushRoutes, type PushRoutesOptions } from '../push';
import { localOrigin, urlHost } from './addresses';
import { clientIp } from './client-ip';
import { lockDownDataDir } from './data-dir';
import { securityHeaders } from './security-headers';
import { createStaticHandler, sendText } from './static-files';

/**
 * An extra HTTP route (e.g. the push endpoints under /push/). It returns true when it handled
 * the request (and has answered it); false lets the next route, and finally the app's static
 * files, try. Security headers are already set on `res` when a route runs.
 */
type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface ServerOptions {
  /** The built app (must contain index.html). */
  distDir: string;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (a free port, see RunningServer.port). */
  port?: number;
  /** PEM certificate and key: serve HTTPS and WSS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Token of the embedded demo gateway hosted at /ws. Either this or `upstream`. */
  token?: string;
  /** State directory of the demo gateway (absent: in memory). */
  dataDir?: string;
  /** More options for the demo gateway (stream speed, limits, push sink, log). */
  gateway?: Omit<Partial<GatewayOptions>, 'token' | 'dataDir'>;
  /** A real gateway (ws:// or wss://) to relay /ws to, byte for byte, instead of the demo. */
  upstream?: string | URL;
  /** TLS options for a wss:// upstream (e.g. `{ ca }` for a self-signed one). */
  upstreamTls?: ConnectionOptions;
  /** Extra HTTP routes, tried in order before the static files. */
  routes?: Route[];
  /**
   * Web Push (/push/*: VAPID key, ntfy relay; the demo gateway's push sink). On whenever `dataDir` is set,
   * since the VAPID keys must outlive restarts; `false` turns it off.
   */
  push?: Omit<PushRoutesOptions, 'dataDir'> | false;
  /** Where unexpected request failures are reported (never with the request's URL); default stderr. */
  log?: (line: string) => void;
  /**
   * Page origins (e.g. https://iris.example.org) whose WebSocket is accepted besides this server's own
   * host: for a reverse proxy that changes the Host header (`--allowed-origin`).
   */
  allowedOrigins?: readonly string[];
  /** Open WebSockets per client address (default 64; every tab, device and test client counts). */
  maxConnectionsPerIp?: number;
  /** Deadlines for a request's headers (default 15 s) and whole request (default 30 s): slow clients cannot hold sockets. */
  httpTimeouts?: { headersMs?: number; requestMs?: number };
}

const DEFAULT_MAX_CONNECTIONS_PER_IP = 64;

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 (https with tls; `localhost` when listening on every interface). */
  url: string;
  /** The app's WebSocket endpoint, e.g. ws://127.0.0.1:8080/ws. */
  wsUrl: string;
  port: number;
  host: string;
  secure: boolean;
  server: Server;
  /** The embedded demo gateway, when /ws hosts it. */
  gateway?: Gateway;
  /** The relay, when /ws is proxied to a real gateway. */
  proxy?: WsProxy;
  /** The push endpoints (served in demo and proxy mode alike), when push is on. */
  push?: PushRoutes;
  /** Stops listening, closes every WebSocket (the demo gateway flushes its state), then resolves. */
  close(): Promise<void>;
}

type WsBackend = Pick<Gateway, 'handleUpgrade' | 'connectionCount' | 'close'>;

/** Starts the serving process in this process: the app, its security headers, and /ws. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  if (!existsSync(join(options.distDir, 'index.html'))) {
    throw new Error(`the app is not built: no index.html in ${options.distDir}`);
  }
  if (options.token !== undefined && options.upstream !== undefined) {
    throw new Error('choose either the demo gateway (token) or an upstream gateway, not both');
  }
  if (options.token !== undefined && options.token.length === 0) throw new Error('the demo token must not be empty');
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map(originOf));
  if (options.dataDir !== undefined) lockDownDataDir(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  const secure = options.tls !== undefined;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Push is mounted before the static files (it claims /push and /push/* only); in proxy mode the
  // relay still serves /push/ntfy* for a real gateway that publishes to ntfy.
  const push =
    options.dataDir !== undefined && options.push !== false
      ? createPushRoutes({ ...options.push, dataDir: options.dataDir })
      : undefined;
  const routes = [...(options.routes ?? []), ...(push ? [push.handle] : [])];
  const serveStatic = createStaticHandler(options.distDir);

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(securityHeaders(req, secure))) res.setHeader(name, value!);
    try {
      for (const route of routes) if (await route(req, res)) return;
      await serveStatic(req, res);
    } catch (error) {
      log(`iris: a request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) res.destroy();
      else sendText(res, 500, 'Internal server error');
    }
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => void onRequest(req, res);
  const headersTimeout = options.httpTimeouts?.headersMs ?? 15_000;
  const requestTimeout = Math.max(headersTimeout, options.httpTimeouts?.requestMs ?? 30_000);
  // Node checks the deadlines every connectionsCheckingInterval (30 s by default, longer than the deadline).
  const timeouts = {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(headersTimeout / 3))),
  };
  // createServer throws here on a certificate or key that is not valid PEM.
  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, ...timeouts }, handler)
    : createHttpServer(timeouts, handler);

  let gateway: Gateway | undefined;
  let proxy: WsProxy | undefined;
  if (options.upstream !== undefined) {
    const upstream = options.upstream instanceof URL ? options.upstream : parseUpstreamUrl(options.upstream);
    proxy = createWsProxy({ upstream, upstreamTls: options.upstreamTls });
  } else if (options.token !== undefined) {
    gateway = createGateway({
      ...options.gateway,
      token: options.token,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.gateway?.push === undefined && push ? { push: push.sink } : {}),
    });
    const devices = gateway.store.devices;
    push?.setGoneHandler(({ device_id, endpoint }) => {
      // Forget the subscription only if the device has not replaced it meanwhile.
      if (devices.get(device_id)?.target.webpush?.endpoint === endpoint) devices.clearPush(device_id);
    });
  }
  const backend: WsBackend | undefined = gateway ?? proxy;

  const maxPerIp = options.maxConnectionsPerIp ?? DEFAULT_MAX_CONNECTIONS_PER_IP;
  const socketsPerIp = new Map<string, number>();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?', 1)[0];
    const isWebSocket = (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
    const ip = clientIp(req);
    if (path !== '/ws' || backend === undefined) rejectUpgrade(req, socket, 404, 'Not Found', secure);
    else if (!isWebSocket || req.method !== 'GET') rejectUpgrade(req, socket, 400, 'Bad Request', secure);
    // A page on another site must not open a socket here with this browser (cross-site WebSocket hijacking).
    else if (!originAllowed(req, allowedOrigins)) rejectUpgrade(req, socket, 403, 'Forbidden', secure);
    else if ((socketsPerIp.get(ip) ?? 0) >= maxPerIp) rejectUpgrade(req, socket, 429, 'Too Many Requests', secure);
    else {
      socketsPerIp.set(ip, (socketsPerIp.get(ip) ?? 0) + 1);
      socket.once('close', () => {
        const left = (socketsPerIp.get(ip) ?? 1) - 1;
        if (left > 0) socketsPerIp.set(ip, left);
        else socketsPerIp.delete(ip);
      });
      backend.handleUpgrade(req, socket, head);
    }
  });

  try {
    await listen(server, host, options.port ?? 0);
  } catch (error) {
    await backend?.close();
    await push?.close();
    throw error;
  }
  server.on('error', (error) => log(`iris: server error: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  const origin = ['0.0.0.0', '::'].includes(host)
    ? localOrigin(host, port, secure)
    : `${secure ? 'https' : 'http'}://${urlHost(host)}:${port}`;

  let closing: Promise<void> | undefined;
  function close(): Promise<void> {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await backend?.close();
      await push?.close();
      // Upgraded sockets still count as the server's connections until they end.
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
    })();
    return closing;
  }

  return {
    url: origin,
    wsUrl: `${origin.replace(/^http/, 'ws')}/ws`,
    port,
    host,
    secure,
    server,
    ...(gateway ? { gateway } : {}),
    ...(proxy ? { proxy } : {}),
    ...(push ? { push } : {}),
    close,
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    throw new Error(`allowed origin "${text.slice(0, 100)}" is not a URL like https://iris.example.org`);
  }
}

/**
 * Browsers always send Origin on a WebSocket: it must be this server's own host (as the page reached
 * it) or a configured origin. No Origin at all is a non-browser client (a gateway CLI, a test), which
 * cannot carry anyone's ambient credentials, so it is let through to the token check.
 */
function originAllowed(req: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.has(url.origin)) return true;
  const host = req.headers.host?.toLowerCase();
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && host !== undefined && url.host.toLowerCase() === host
  );
}

/** Answers an upgrade we will not take with a plain HTTP status, security headers included. */
function rejectUpgrade(req: IncomingMessage, socket: Duplex, status: number, text: string, secure: boolean): void {
  const headers = {
    ...securityHeaders(req, secure),
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(text.length),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}`);
  socket.end(`HTTP/1.1 ${status} ${text}\r\n${lines.join('\r\n')}\r\n\r\n${text}`);
}
