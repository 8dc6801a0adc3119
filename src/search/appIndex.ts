// The app's local search index over the cached messages: one per runtime, started on first ask
// (`useIris().shared(startLocalIndex)`, so its code loads with the chunk that asks) and kept up to date.
import type { IrisDB } from '../store/db';
import type { MessageRow } from '../store/schema';
import { createLocalIndex } from './localIndex';
import { syncIndexWithDb } from './indexSync';

interface LocalSearchResult {
  row: MessageRow;
  hits: number;
}

export interface LocalSearch {
  /** Resolves when the first build is done. */
  readonly ready: Promise<void>;
  /** Whether the first build has finished (before that, results may be missing older messages). */
  built(): boolean;
  /** Searches the cached messages; rows are read back from the DB (the index keeps no text). */
  search(query: string, options?: { lane?: string; limit?: number }): Promise<LocalSearchResult[]>;
  /** Stops following the database and drops the build's remaining chunks (the runtime's stop() calls it). */
  stop(): void;
}

/** Starts building the index over `db`'s messages. */
export function startLocalIndex({ db }: { db: IrisDB }): LocalSearch {
  const index = createLocalIndex();
  const sync = syncIndexWithDb(index, db);
  let built = false;
  let stopped = false;
  void sync.ready.then(() => {
    // A build cut short by stop() also resolves `ready`; it did not finish.
    built = !stopped;
  });
  return {
    ready: sync.ready,
    built: () => built,
    async search(query, options = {}) {
      const hits = index.search(query, options);
      if (hits.length === 0) return [];
      const rows = await db.messages.bulkGet(hits.map((h) => h.message_id));
      const results: LocalSearchResult[] = [];
      hits.forEach((hit, i) => {
        const row = rows[i];
        // A row deleted since it was indexed is skipped; the index catches up on its own.
        if (row) results.push({ row, hits: hit.hits });
      });
      return results;
    },
    stop() {
      stopped = true;
      sync.stop();
    },
  };
}
