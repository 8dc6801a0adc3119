// The client against the real reference gateway over a real WebSocket: conversations streamed and
// stored, read back offline, and a gateway that dies mid-stream.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StandaloneGateway } from '../../server/gateway/standalone';
import { laneMessages } from '../store/models/messages';
import type { IrisDB } from '../store/db';
import { freshDb, reopen } from '../testing/db';
import { client, defaultLane, pairedClient, useTestGateway } from '../testing/gatewayClient';
import { until } from '../testing/until';

// Registered before the clean-up below, so it runs after it: clients stop before their gateway closes.
const fixture = useTestGateway({ tempDataDir: true });
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function track<T extends { stop(): Promise<void> } | StandaloneGateway>(thing: T): T {
  cleanup.push(() => ('stop' in thing ? thing.stop() : thing.close()));
  return thing;
}

async function finalReplies(db: IrisDB, lane: string, count: number) {
  return until(
    async () => {
      const rows = (await laneMessages(db, lane)).filter((m) => m.role === 'assistant' && m.status === 'final');
      return rows.length >= count ? rows : undefined;
    },
    `${count} final replies`,
    15_000,
  );
}

describe('a conversation with the reference gateway', () => {
  it('streams three turns into the DB; a reloaded client reads them with the gateway stopped', async () => {
    const gw = await fixture.restart();
    const db = freshDb();
    const c = await pairedClient(db, gw.url);
    const lane = await defaultLane(db);
    c.setActiveLane(lane);
    for (let turn = 1; turn <= 3; turn++) {
      await c.send(lane, `turn number ${turn}`);
      await finalReplies(db, lane, turn);
    }
    // Every user bubble was confirmed by its echo (sent, then read when the agent started on it).
    await until(
      async () => (await laneMessages(db, lane)).filter((m) => m.role === 'user' && m.status === 'read').length === 3,
      'read receipts',
    );
    const onGateway = gw.gateway.store.messages(lane).map((m) => [m.message_id, m.role, m.text]);
    expect(onGateway).toHaveLength(6);
    await c.stop();
    await fixture.stop();

    // A reload: a new client on the same DB, no gateway to talk to.
    const again = reopen(db);
    const offline = client(again);
    await offline.start();
    const stored = await laneMessages(again, lane);
    expect(stored.map((m) => [m.message_id, m.role, m.text])).toEqual(onGateway);
    expect(stored.every((m) => m.status === 'final' || m.status === 'read')).toBe(true);
    expect(stored.filter((m) => m.role === 'assistant')[0]!.text).toContain('**Echo:** turn number 1');
    expect(offline.state()).not.toBe('online');
    await offline.stop();
  });

  it('a gateway stopped mid-stream and restarted: after reconnect and sync every message is present once and final', async () => {
    let gw = await fixture.restart({ streamDelayMs: 15 });
    const port = gw.port;
    const db = freshDb();
    const c = track(await pairedClient(db, gw.url));
    const lane = await defaultLane(db);
    c.setActiveLane(lane);
    await c.send(lane, '/long');
    // Part of the reply has streamed in…
    await until(
      async () => (await laneMessages(db, lane)).some((m) => m.status === 'streaming' && m.text.length > 40),
      'a reply streaming',
    );
    await fixture.stop(); // …and the gateway goes away mid-stream.
    await until(() => c.state() !== 'online', 'client offline');
    gw = await fixture.restart({ streamDelayMs: 15, port });
    c.session()!.connection.wake(); // skip the backoff wait
    await until(() => c.session()?.isSynced, 'reconnected and synced', 10_000);
    await c.send(lane, 'after the restart');
    await until(
      async () => {
        const rows = await laneMessages(db, lane);
        return (
          rows.filter((m) => m.role === 'assistant' && m.status === 'final').length === 2 &&
          rows.every((m) => m.status !== 'streaming')
        );
      },
      'both replies final',
      15_000,
    );
    const expected = gw.gateway.store.messages(lane).map((m) => [m.message_id, m.role, m.text]);
    const stored = (await laneMessages(db, lane)).map((m) => [m.message_id, m.role, m.text]);
    expect(stored).toEqual(expected);
    expect(new Set(stored.map((s) => s[0])).size).toBe(stored.length);
    expect(expected.find((m) => m[1] === 'assistant')![2]).toMatch(/interrupted/);
  });
});
