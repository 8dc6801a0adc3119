// The client's integration tests: a real reference gateway (the gateway tests' own fixture), and clients on
// fake-indexeddb databases (freshDb, in ./db) paired with it. The test file imports 'fake-indexeddb/auto' first.
import WebSocket from 'ws';
import { useGateway, type FixtureOptions, type GatewayFixture } from '../../server/gateway/testing';
import { createClient, type ClientOptions, type IrisClient } from '../client';
import type { IrisDB } from '../store/db';
import type { WebSocketConstructor } from '../net/connection';
import { until } from './until';

const NodeWebSocket = WebSocket as unknown as WebSocketConstructor;
export const TOKEN = 'test-token-' + Math.random().toString(36).slice(2);

/**
 * The gateway fixture (server/gateway/testing.ts) with the clients' token and a fast demo stream. Call it at the
 * top of the file; each test starts its gateway with `fixture.restart(options)`, and it is closed after the test.
 */
export function useTestGateway(options: Pick<FixtureOptions, 'tempDataDir'> = {}): GatewayFixture {
  return useGateway({ token: TOKEN, streamDelayMs: 1, startBeforeEach: false, ...options });
}

export function client(db: IrisDB, extra: Partial<ClientOptions> = {}): IrisClient {
  return createClient({
    db,
    WebSocketImpl: NodeWebSocket,
    multiTab: false,
    wakeSource: () => () => {},
    deviceName: 'Vitest on Node',
    ...extra,
  });
}

/** A client paired with `url` and online (synced). */
export async function pairedClient(db: IrisDB, url: string, extra: Partial<ClientOptions> = {}): Promise<IrisClient> {
  const c = client(db, extra);
  await c.start();
  await c.pair(url, TOKEN);
  await until(() => c.session()?.isSynced, 'client online and synced', 10_000);
  return c;
}

/** The lane the gateway calls default. */
export async function defaultLane(db: IrisDB): Promise<string> {
  return until(async () => (await db.channels.toArray()).find((c) => c.is_default)?.chat_id, 'default channel');
}

export async function userMessages(db: IrisDB, lane: string) {
  return (await db.messages.where('[lane+ts]').between([lane, -Infinity], [lane, Infinity]).toArray()).filter(
    (m) => m.role === 'user',
  );
}
