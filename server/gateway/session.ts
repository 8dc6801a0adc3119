// ClientSession-level requests: liveness, outbox replay (spec README §8) and push registration (§13).
import type { ClientFrameOf } from '../../src/protocol';
import type { ClientSession } from './clientsession';

export function ping(client: ClientSession, frame: ClientFrameOf<'ping'>): void {
  const ts = frame.payload.ts;
  client.send({
    v: 1,
    type: 'pong',
    id: frame.id,
    payload: typeof ts === 'number' && Number.isFinite(ts) ? { ts } : {},
  });
}

/**
 * Drop what the app's cursor acknowledges (spec README §16), replay the device's outbox after it, in
 * order, then sync.done with the newest cursor.
 */
export function sync(client: ClientSession, frame: ClientFrameOf<'sync'>): void {
  const { store } = client.ctx;
  const raw = frame.payload.cursor;
  const cursor = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? Math.floor(raw) : 0;
  store.devices.acknowledge(client.deviceId, cursor);
  client.sendMany(Array.from(store.devices.since(client.deviceId, cursor), (entry) => entry.frame));
  store.flush(); // the cursor handed out below, and the compacted journal, must survive a crash
  client.send({ v: 1, type: 'sync.done', id: frame.id, payload: { cursor: store.cursor(client.deviceId) } });
}

export function fcmRegister(client: ClientSession, frame: ClientFrameOf<'fcm.register'>): void {
  client.ctx.store.devices.updatePush(client.deviceId, frame.payload as Record<string, unknown>);
}
