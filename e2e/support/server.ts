// The serving process under test: a fresh one (demo gateway on a free 127.0.0.1 port) per test as the
// `iris` fixture, or launched by a test that stops and restarts it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { GatewayQuirks } from '../../server/gateway/quirks';
import { startServer, type RunningServer, type ServerOptions } from '../../server/http/server';

/** The link `npm start` prints: the gateway and token in the fragment, never sent to the server. */
export function pairingLink(origin: string, token: string): string {
  const ws = origin.replace(/^http/, 'ws') + '/ws';
  return `${origin}/#/pair?url=${encodeURIComponent(ws)}&token=${encodeURIComponent(token)}`;
}

export interface IrisServer {
  /** http://127.0.0.1:PORT */
  baseURL: string;
  /** The same as baseURL: the name the app helpers (./app.ts) share with the hostile gateway. */
  origin: string;
  /** ws://127.0.0.1:PORT/ws */
  gatewayUrl: string;
  token: string;
  /** The pairing link the server prints. */
  pairingLink: string;
  server: RunningServer;
  dataDir: string;
}

export async function launchServer(
  opts: {
    dataDir?: string;
    token?: string;
    streamDelayMs?: number;
    port?: number;
    distDir?: string;
    push?: ServerOptions['push'];
    /** Make the demo gateway read the protocol as another gateway might (server/gateway/quirks.ts). */
    quirks?: GatewayQuirks;
  } = {},
): Promise<IrisServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'iris-e2e-'));
  const token = opts.token ?? 'e2e-token-' + Math.random().toString(36).slice(2);
  const server = await startServer({
    port: opts.port ?? 0,
    host: '127.0.0.1',
    distDir: opts.distDir ?? resolve('dist'),
    dataDir,
    token,
    gateway: { streamDelayMs: opts.streamDelayMs ?? 15, ...(opts.quirks && { quirks: opts.quirks }) },
    ...(opts.push !== undefined && { push: opts.push }),
  });
  const baseURL = `http://127.0.0.1:${server.port}`;
  const gatewayUrl = `ws://127.0.0.1:${server.port}/ws`;
  return {
    baseURL,
    origin: baseURL,
    gatewayUrl,
    token,
    pairingLink: pairingLink(baseURL, token),
    server,
    dataDir,
  };
}

/** The demo gateway inside the serving process (a test that stopped it, or runs another, has none). */
export function demoGateway(iris: IrisServer): NonNullable<RunningServer['gateway']> {
  const gateway = iris.server.gateway;
  if (!gateway) throw new Error('the demo gateway is not running');
  return gateway;
}

/**
 * Seeds `count` messages into a lane of the demo gateway (default `web:default`, app.ts's LANE), alternating person and agent, a
 * minute apart, ending now. `variedHeights`: every seventh is a few lines longer, so rows differ in height (as a
 * virtual list must cope with). Returns their ids, oldest first.
 */
export function seedLongLane(
  iris: IrisServer,
  count: number,
  { lane = 'web:default', variedHeights = false }: { lane?: string; variedHeights?: boolean } = {},
): string[] {
  const store = demoGateway(iris).store;
  const start = Date.now() - count * 60_000;
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) {
    const long =
      variedHeights && i % 7 === 0
        ? '\n\nA longer paragraph that wraps over a few lines to vary the row heights. '.repeat(3)
        : '';
    const stored = store.conversations.append({
      lane,
      role: i % 2 ? 'user' : 'assistant',
      text: `Message number ${i}${long}`,
      ts: start + i * 60_000,
    });
    ids.push(stored.message_id);
  }
  store.flush();
  return ids;
}

/** The texts of the person's messages the gateway stored in a lane, oldest first (poll it: they arrive later). */
export function userTextsAtGateway(iris: IrisServer, lane: string): string[] {
  return demoGateway(iris)
    .store.messages(lane)
    .filter((m) => m.role === 'user')
    .map((m) => m.text);
}

export const test = base.extend<{ iris: IrisServer }>({
  iris: async ({}, use) => {
    const iris = await launchServer();
    await use(iris);
    await iris.server.close();
    rmSync(iris.dataDir, { recursive: true, force: true });
  },
});

export { expect };
