// The app's one local search index over the cached messages, started once and kept up to date.
import type { IrisDB } from '../store/db';
import type { MessageRow } from '../store/schema';
import { createLocalIndex, type LocalIndex } from './localIndex';
import { syncIndexWithDb, type IndexSync } from './indexSync';

export interface LocalSearchResult {
  row: MessageRow;
  hits: number;
}

interface Running {
  db: IrisDB;
  index: LocalIndex;
  sync: IndexSync;
  built: boolean;
}

let running: Running | undefined;

/** Starts building the index (idempotent per database). */
export function startLocalIndex(db: IrisDB): { ready: Promise<void> } {
  if (running?.db !== db) {
    running?.sync.stop();
    const index = createLocalIndex();
    const state: Running = { db, index, sync: syncIndexWithDb(index, db), built: false };
    void state.sync.ready.then(() => {
      state.built = true;
    });
    running = state;
  }
  return { ready: running.sync.ready };
}

/** Whether the first build has finished (before that, results may be missing older messages). */
export function localIndexBuilt(): boolean {
  return running?.built ?? false;
}

/** Searches the cached messages; rows are read back from the DB (the index keeps no text). */
export async function searchLocal(
  db: IrisDB,
  query: string,
  options: { lane?: string; limit?: number } = {},
): Promise<LocalSearchResult[]> {
  startLocalIndex(db);
  const hits = running!.index.search(query, options);
  if (hits.length === 0) return [];
  const rows = await db.messages.bulkGet(hits.map((h) => h.message_id));
  const results: LocalSearchResult[] = [];
  hits.forEach((hit, i) => {
    const row = rows[i];
    // A row deleted since it was indexed is skipped; the index catches up on its own.
    if (row) results.push({ row, hits: hit.hits });
  });
  return results;
}
