// Helpers for the store's unit tests (each test imports 'fake-indexeddb/auto' itself).
import type { ServerFrame } from '../protocol';
import { IrisDB } from './db';

/** A new, empty database with a name no other test uses. */
export function freshDb(): IrisDB {
  return new IrisDB(`test-${crypto.randomUUID()}`);
}

/** Build a server frame, possibly malformed (tests feed the reducer what a hostile gateway could). */
export function frame(type: string, payload: unknown = {}, envelope: { chat_id?: unknown; thread_id?: unknown; id?: unknown } = {}): ServerFrame {
  return { v: 1, type, ...envelope, payload } as unknown as ServerFrame;
}

/** Every table's rows (blobs left out), each table sorted by primary key: comparable with toEqual. */
export async function dump(db: IrisDB): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) {
    if (table.name === 'mediaBlobs') {
      out[table.name] = await table.toCollection().primaryKeys();
      continue;
    }
    const keys = await table.toCollection().primaryKeys();
    const rows = await table.bulkGet(keys);
    out[table.name] = rows;
  }
  return out;
}
