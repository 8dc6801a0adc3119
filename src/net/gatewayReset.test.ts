// A gateway that lost its state (new data directory, same URL) numbers its outbox from 0 again
// (spec README §8: a cursor beyond its newest gets everything). The app must then drop its old
// cursor: kept, it stays ahead of the new numbering and a later sync skips every frame below it.
import 'fake-indexeddb/auto';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { useGateway } from '../../server/gateway/testing';
import { laneMessages } from '../store/models/messages';
import { freshDb } from '../testing/db';
import { defaultLane, pairedClient, TOKEN } from '../testing/gatewayClient';
import { until } from '../testing/until';

// Its data dir is 'first' inside the fixture's temporary directory; the gateway that lost its state uses 'second'.
const fixture = useGateway({ token: TOKEN, streamDelayMs: 1, tempDataDir: 'first' });
// Registered after the fixture: the app's client stops before the gateway closes.
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

it('after the gateway loses its state, a later sync still brings every frame', async () => {
  let gw = fixture.gw;
  const port = gw.port;
  const db = freshDb();
  const c = await pairedClient(db, gw.url);
  const lane = await defaultLane(db);
  for (const [i, text] of ['one', 'two', 'three'].entries()) {
    await c.send(lane, text);
    await until(
      async () =>
        (await laneMessages(db, lane)).filter((m) => m.role === 'assistant' && m.status === 'final').length > i,
      `reply ${i}`,
    );
  }
  // A reconnect stores a cursor well above 0.
  await c.stop();
  await c.start();
  await until(async () => ((await db.sync.get(gw.url))?.cursor ?? 0) > 10, 'cursor stored');

  // The gateway comes back with nothing (same URL): this device is new to it.
  await c.stop();
  gw = await fixture.restart({ dataDir: join(fixture.tempDir, 'second'), port });
  await c.start();
  await until(() => c.session()?.isSynced, 'synced with the new gateway');
  await c.stop();

  // While this device is away, another one makes more frames than the old cursor counted.
  const other = await fixture.device('other-device');
  for (let i = 0; i < 8; i++) await other.chat(`while away ${i}`, { chat_id: 'web:demo' });
  const deviceId = (await db.settings.get('deviceId'))!.value as string;
  expect(gw.gateway.store.cursor(deviceId)).toBeGreaterThan(20);

  // Nothing is on screen, so only the replay can bring the other lane's messages.
  await c.start();
  cleanup.push(() => c.stop());
  const want = gw.gateway.store.messages('web:demo').map((m) => m.message_id);
  await until(
    async () => (await laneMessages(db, 'web:demo')).length === want.length,
    'every message of the other lane',
    10_000,
  );
  expect((await laneMessages(db, 'web:demo')).map((m) => m.message_id)).toEqual(want);
  expect((await db.sync.get(gw.url))?.cursor).toBe(gw.gateway.store.cursor(deviceId));
}, 60_000);
