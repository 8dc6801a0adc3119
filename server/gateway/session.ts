// Connection-level requests: liveness, outbox replay (spec README §8) and push registration (§13).
import type { ClientFrameOf } from '../../src/protocol';
import type { Connection } from './connection';

export function ping(conn: Connection, frame: ClientFrameOf<'ping'>): void {
  const ts = frame.payload.ts;
  conn.send({ v: 1, type: 'pong', id: frame.id, payload: typeof ts === 'number' && Number.isFinite(ts) ? { ts } : {} });
}

/**
 * Drop what the app's cursor acknowledges (spec README §16), replay the device's outbox after it, in
 * order, then sync.done with the newest cursor.
 */
export function sync(conn: Connection, frame: ClientFrameOf<'sync'>): void {
  const { store } = conn.ctx;
  const raw = frame.payload.cursor;
  const cursor = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 ? Math.floor(raw) : 0;
  store.devices.acknowledge(conn.deviceId, cursor);
  for (const entry of store.devices.since(conn.deviceId, cursor)) conn.sendEncoded(entry.frame, false);
  store.flush(); // the cursor handed out below, and the compacted journal, must survive a crash
  conn.send({ v: 1, type: 'sync.done', id: frame.id, payload: { cursor: store.cursor(conn.deviceId) } });
}

export function fcmRegister(conn: Connection, frame: ClientFrameOf<'fcm.register'>): void {
  conn.ctx.store.devices.updatePush(conn.deviceId, frame.payload as Record<string, unknown>);
}
