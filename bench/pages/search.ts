// The app's local search (src/search) over the messages cached in its database: the index build
// exactly as the app starts it (startLocalIndex: chunked reads from IndexedDB, yielding to the page),
// the same index built in memory from rows already read, and the 20 fixed benchmark queries.
import { IrisDB } from '../../src/store/db';
import { startLocalIndex, type LocalSearch } from '../../src/search/appIndex';
import { createLocalIndex } from '../../src/search/localIndex';
import { BENCH_QUERIES } from '../../src/search/syntheticMessages';
import { meanTime, meanTimeAsync, medianOf } from '../inpage/timing';

export interface SearchPageApi {
  /** startLocalIndex({ db }).ready, timed (ms). */
  build(): Promise<number>;
  /** Median over the 20 queries of: index-only query (ms), the app's search with its row reads (ms); and the in-memory build (ms). */
  queries(): Promise<{ indexQuery: number; searchLocal: number; memoryBuild: number; hits: number }>;
}

const db = new IrisDB();
/** The app's index over `db`, one for the page as the runtime keeps one. */
let appIndex: LocalSearch | undefined;
const app = (): LocalSearch => (appIndex ??= startLocalIndex({ db }));

const api: SearchPageApi = {
  async build() {
    const start = performance.now();
    await app().ready;
    return performance.now() - start;
  },

  async queries() {
    const rows = await db.messages.toArray();
    const index = createLocalIndex();
    const start = performance.now();
    index.add(rows);
    const memoryBuild = performance.now() - start;
    const indexTimes = BENCH_QUERIES.map((q) => meanTime(() => index.search(q)));
    const localTimes: number[] = [];
    let hits = 0;
    for (const q of BENCH_QUERIES) {
      localTimes.push(await meanTimeAsync(() => app().search(q)));
      hits += (await app().search(q)).length;
    }
    return { indexQuery: medianOf(indexTimes), searchLocal: medianOf(localTimes), memoryBuild, hits };
  },
};
(window as unknown as { bench: SearchPageApi }).bench = api;
