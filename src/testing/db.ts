// Databases for unit tests, and frames to feed them (each test imports 'fake-indexeddb/auto' itself).
import type { ServerFrame } from '../protocol';
import { IrisDB } from '../store/db';

/** A new, empty database with a name no other test uses. */
export function freshDb(): IrisDB {
  return new IrisDB(`test-${crypto.randomUUID()}`);
}

/** Opens the same database again, as a reloaded page would. */
export function reopen(db: IrisDB): IrisDB {
  return new IrisDB(db.name);
}

/** Build a server frame, possibly malformed (tests feed the reducer what a hostile gateway could). */
export function frame(
  type: string,
  payload: unknown = {},
  envelope: { chat_id?: unknown; thread_id?: unknown; id?: unknown } = {},
): ServerFrame {
  return { v: 1, type, ...envelope, payload } as unknown as ServerFrame;
}

/**
 * A table's rows exactly as stored, in primary-key order: read past Dexie's reading hooks, whose
 * repair (store/repair.ts) would hide a bad write from a test.
 */
export function rawRows<T>(db: IrisDB, table: string): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const req = (db.backendDB() as IDBDatabase).transaction(table).objectStore(table).getAll();
    req.onsuccess = () => resolve(req.result as T[]);
    req.onerror = () => reject(req.error);
  });
}

/** Every table's rows as stored (blobs by key only), each sorted by primary key: comparable with toEqual. */
export async function dump(db: IrisDB): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) {
    out[table.name] =
      table.name === 'mediaBlobs' ? await table.toCollection().primaryKeys() : await rawRows(db, table.name);
  }
  return out;
}
