// Scenario 2, cold start: the app opens a lane of N cached messages with the gateway stopped; time from
// navigation to the newest message painted, with and without 4x CPU throttling. Bare page: read the
// same rows from IndexedDB (raw API) and paint one line. Each measured page gets its own fresh
// context, seeded just before, so both start from the same state.
import { newBenchPage, waitPainted } from '../lib/browser';
import type { FigureDef, Sample } from '../lib/figures';
import { contextWithLane } from '../lib/seed';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import { LANE } from '../lib/drive';

const NEWEST = 'benchNewestQ7X';
const OLDEST = 'benchOldestQ7X';

export const coldStartDefs = (n: number): FigureDef[] => [
  { key: 'app', figure: `newest of ${n.toLocaleString('en-US')} messages painted`, unit: 'ms', bare: 'bare' },
  { key: 'app4x', figure: 'same, 4x CPU throttling', unit: 'ms', bare: 'bare4x' },
  { key: 'jsFiles', figure: 'JS files loaded before it was painted', unit: 'count' },
  { key: 'jsBytes', figure: 'JS bytes loaded before it was painted (uncompressed)', unit: 'KiB' },
];

/** One measurement: a fresh seeded context, then navigation to `path` and the newest line painted. */
async function measure(
  ctx: ScenarioContext,
  server: BenchServer,
  count: number,
  path: string,
  throttle: number,
): Promise<{ painted: number; jsFiles: number; jsBytes: number }> {
  const context = await contextWithLane(ctx.browser, server, count, { newest: NEWEST, oldest: OLDEST });
  try {
    const { page } = await newBenchPage(context, ctx.site.instrument, { paintNeedles: [NEWEST] }, throttle);
    await page.goto(`${server.url}${path}`);
    const painted = await waitPainted(page, NEWEST, ctx.timeoutMs, 'the newest message');
    const scripts = await page.evaluate(
      (until) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js'))
          .filter((e) => (e as PerformanceResourceTiming).responseEnd <= until)
          .map((e) => (e as PerformanceResourceTiming).decodedBodySize),
      painted,
    );
    return { painted, jsFiles: scripts.length, jsBytes: scripts.reduce((a, b) => a + b, 0) / 1024 };
  } finally {
    await context.close();
  }
}

export async function coldStart(ctx: ScenarioContext): Promise<Sample[]> {
  const count = ctx.quick ? 500 : 5000;
  const server = await startBenchServer(ctx.site.dir, false);
  try {
    return await ctx.repeat(async (run) => {
      const sample: Sample = {};
      const appPath = `/#/c/${encodeURIComponent(LANE)}`;
      const barePath = `/bench/bare/cold-start.html#lane=${encodeURIComponent(LANE)}`;
      // Alternate which goes first, so neither always runs on a warmer machine.
      const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      for (const throttle of [1, 4]) {
        for (const who of order) {
          const key = `${who}${throttle === 4 ? '4x' : ''}`;
          await ctx.measure(sample, [key], async () => {
            const m = await measure(ctx, server, count, who === 'app' ? appPath : barePath, throttle);
            sample[key] = m.painted;
            if (who === 'app' && throttle === 1) {
              sample.jsFiles = m.jsFiles;
              sample.jsBytes = m.jsBytes;
            }
          });
        }
      }
      return sample;
    });
  } finally {
    await server.close();
  }
}
