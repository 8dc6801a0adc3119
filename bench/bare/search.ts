// The limit for local search without an index: read every cached message with the raw IndexedDB API
// (the least any index build must do), then answer each query by scanning all texts for all its words.
import { BENCH_QUERIES } from '../../src/search/syntheticMessages';
import { meanTime, medianOf } from '../inpage/timing';

export interface BareSearchApi {
  /** Time to read every message (ms). */
  read(): Promise<number>;
  /** Median over the 20 queries of one full scan (ms). */
  scan(): { median: number; hits: number };
}

let texts: string[] = [];
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function scanFor(query: string): number {
  const words = fold(query).split(/\s+/).filter(Boolean);
  let found = 0;
  for (const text of texts) if (words.every((w) => text.includes(w))) found++;
  return found;
}

const api: BareSearchApi = {
  read() {
    return new Promise((resolve, reject) => {
      const start = performance.now();
      const opening = indexedDB.open('iris');
      opening.onerror = () => reject(new Error('bare search page: cannot open the database'));
      opening.onsuccess = () => {
        const read = opening.result.transaction('messages', 'readonly').objectStore('messages').getAll();
        read.onsuccess = () => {
          const elapsed = performance.now() - start;
          texts = (read.result as { text: string }[]).map((r) => fold(r.text));
          resolve(elapsed);
        };
      };
    });
  },
  scan() {
    let hits = 0;
    const times = BENCH_QUERIES.map((q) => {
      hits += Math.min(50, scanFor(q));
      return meanTime(() => scanFor(q), 20, 50);
    });
    return { median: medianOf(times), hits };
  },
};
(window as unknown as { bench: BareSearchApi }).bench = api;
