// Scenario 6, local search: N synthetic cached messages (src/search/syntheticMessages, 20 lanes) in the
// app's database. The app's index (src/search) is built as the app builds it, then the 20 fixed
// queries (BENCH_QUERIES) run. Bare page: read every message (raw IndexedDB) and scan the texts.
import { heapAfterGc, newBenchPage, newContext } from '../lib/browser';
import type { FigureDef, Sample } from '../lib/figures';
import { seedSearchCorpus } from '../lib/seed';
import { startBenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { SearchPageApi } from '../pages/search';
import type { BareSearchApi } from '../bare/search';

export const searchDefs = (n: number): FigureDef[] => [
  {
    key: 'build',
    figure: `index build from IndexedDB, ${n.toLocaleString('en-US')} messages (as the app starts it)`,
    unit: 'ms',
    bare: 'bareRead',
  },
  { key: 'memoryBuild', figure: 'index build from rows in memory', unit: 'ms' },
  { key: 'indexQuery', figure: 'median query time, 20 fixed queries (index only)', unit: 'µs', bare: 'bareScan' },
  { key: 'searchLocal', figure: 'median query time with hit rows read back (searchLocal)', unit: 'ms' },
  { key: 'heap', figure: 'JS heap with the index built (after GC)', unit: 'MiB', bare: 'bareHeap' },
];

export async function search(ctx: ScenarioContext): Promise<Sample[]> {
  const count = ctx.quick ? 10_000 : 100_000;
  const server = await startBenchServer(ctx.site.dir, false);
  try {
    return await ctx.repeat(async (run) => {
      const sample: Sample = {};
      const context = await newContext(ctx.browser);
      try {
        await seedSearchCorpus(context, server, count);
        // Both pages read the same database; which goes first alternates between runs.
        const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
        for (const who of order) {
          if (who === 'app') {
            await ctx.measure(sample, ['build', 'memoryBuild', 'indexQuery', 'searchLocal', 'heap'], async () => {
              const { page, cdp } = await newBenchPage(context, ctx.site.instrument);
              await page.goto(`${server.url}/bench/pages/search.html`);
              await page.waitForFunction(() => 'bench' in window);
              sample.build = await page.evaluate(() => (window as unknown as { bench: SearchPageApi }).bench.build());
              sample.heap = await heapAfterGc(cdp);
              const q = await page.evaluate(() => (window as unknown as { bench: SearchPageApi }).bench.queries());
              Object.assign(sample, {
                memoryBuild: q.memoryBuild,
                indexQuery: q.indexQuery * 1000,
                searchLocal: q.searchLocal,
              });
              await page.close();
            });
          } else {
            await ctx.measure(sample, ['bareRead', 'bareScan', 'bareHeap'], async () => {
              const { page, cdp } = await newBenchPage(context, ctx.site.instrument);
              await page.goto(`${server.url}/bench/bare/search.html`);
              await page.waitForFunction(() => 'bench' in window);
              sample.bareRead = await page.evaluate(() => (window as unknown as { bench: BareSearchApi }).bench.read());
              sample.bareHeap = await heapAfterGc(cdp);
              sample.bareScan =
                (await page.evaluate(() => (window as unknown as { bench: BareSearchApi }).bench.scan())).median * 1000;
              await page.close();
            });
          }
        }
      } finally {
        await context.close();
      }
      return sample;
    });
  } finally {
    await server.close();
  }
}
