// The limit for sync catch-up: the same replayed frames stored with one Dexie bulkPut (one
// transaction), timed until it has committed. Parsing the frames happens before the clock starts.
import Dexie, { type Table } from 'dexie';

export interface BareSyncApi {
  /** Returns the bulkPut's time (ms) from call to commit. */
  bulkPut(frames: string[]): Promise<number>;
}

class BareDB extends Dexie {
  frames!: Table<{ i: number; frame: unknown }, number>;
  constructor() {
    super('bench-bare-sync');
    this.version(1).stores({ frames: '&i' });
  }
}

const api: BareSyncApi = {
  async bulkPut(frames) {
    const db = new BareDB();
    await db.open();
    const records = frames.map((text, i) => ({ i, frame: JSON.parse(text) as unknown }));
    const start = performance.now();
    await db.transaction('rw', db.frames, () => db.frames.bulkPut(records));
    const elapsed = performance.now() - start;
    db.close();
    return elapsed;
  },
};
(window as unknown as { bench: BareSyncApi }).bench = api;
