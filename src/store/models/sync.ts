// The sync cursor per gateway (spec README §8): the newest outbox frame this device has applied.
import type { IrisDB } from '../db';

export async function getCursor(db: IrisDB, gateway: string): Promise<number> {
  return (await db.sync.get(gateway))?.cursor ?? 0;
}

/**
 * Store a cursor, never moving it backwards (a stale or repeated sync.done must not make the next
 * sync replay what was already applied). Ignores anything but a non-negative integer. Returns the
 * cursor now stored. Call it inside the transaction that applied the frames it covers.
 */
export async function setCursor(db: IrisDB, gateway: string, cursor: number): Promise<number> {
  if (!Number.isSafeInteger(cursor) || cursor < 0) return getCursor(db, gateway);
  return db.transaction('rw', db.sync, async () => {
    const stored = await getCursor(db, gateway);
    if (cursor <= stored) return stored;
    await db.sync.put({ gateway, cursor });
    return cursor;
  });
}

/** Forget a gateway (re-pairing elsewhere, "forget this gateway"): its next sync starts from 0. */
export async function forgetCursor(db: IrisDB, gateway: string): Promise<void> {
  await db.sync.delete(gateway);
}
