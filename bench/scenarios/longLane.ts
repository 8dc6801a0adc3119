// Scenario 5, long lane: N cached messages of mixed length in one lane (gateway stopped). Open it at
// the newest, then scroll to the oldest a step (90% of the viewport) per animation frame: frame times
// (requestAnimationFrame deltas, p50/p95) and the JS heap after scrolling (after a full GC).
// Bare page: the same rows as plain paragraphs, all in the page, scrolled the same way. Then a shorter
// lane holding several whole-file answers (3,000-line code blocks) scrolled the same way, app and bare.
import { heapAfterGc, newBenchPage, waitPainted } from '../lib/browser';
import { LANE } from '../lib/drive';
import { missing, percentile, type FigureDef, type Sample } from '../lib/figures';
import { laneHash } from '../lib/app';
import { contextWithLane } from '../lib/seed';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { ScrollResult } from '../inpage/benchApi';
import { BIG_ANSWER_LINES } from '../inpage/laneHistory';

const NEWEST = 'benchNewestL4N';
const OLDEST = 'benchOldestL4N';
const STEP = 0.9;

/** The lane with whole-file answers: its messages, and how many are 3,000-line code blocks. */
export const bigLaneSizes = (quick: boolean) => (quick ? { count: 200, big: 3 } : { count: 1000, big: 10 });

export const longLaneDefs = (n: number, big: { count: number; big: number }): FigureDef[] => [
  {
    key: 'p50',
    figure: `frame time while scrolling ${n.toLocaleString('en-US')} messages, p50`,
    unit: 'ms',
    bare: 'bareP50',
  },
  { key: 'p95', figure: 'frame time while scrolling, p95', unit: 'ms', bare: 'bareP95' },
  { key: 'slowFrames', figure: 'frames over 50 ms while scrolling', unit: 'count', bare: 'bareSlowFrames' },
  { key: 'steps', figure: 'scroll steps from newest to oldest (90% of the view each)', unit: 'count' },
  { key: 'heap', figure: 'JS heap after scrolling (after GC)', unit: 'MiB', bare: 'bareHeap' },
  {
    key: 'bigP95',
    figure: `${big.count.toLocaleString('en-US')} messages, ${big.big} of them ${BIG_ANSWER_LINES.toLocaleString('en-US')}-line code blocks: frame time while scrolling, p95`,
    unit: 'ms',
    bare: 'bareBigP95',
  },
  {
    key: 'bigSlowFrames',
    figure: 'with the code blocks: frames over 50 ms while scrolling',
    unit: 'count',
    bare: 'bareBigSlowFrames',
  },
  { key: 'bigWorstFrame', figure: 'with the code blocks: longest frame', unit: 'ms', bare: 'bareBigWorstFrame' },
];

async function measure(
  ctx: ScenarioContext,
  server: BenchServer,
  count: number,
  path: string,
  scroller: string,
  bigAnswers = 0,
): Promise<Sample> {
  const markers = { newest: NEWEST, oldest: OLDEST };
  const context = await contextWithLane(ctx.browser, server, count, markers, 11, bigAnswers);
  try {
    const { page, cdp } = await newBenchPage(context, ctx.site.instrument, { paintNeedles: [NEWEST, OLDEST] });
    await page.goto(`${server.url}${path}`);
    await waitPainted(page, NEWEST, ctx.timeoutMs, 'the newest message');
    // The app paints its first screen from the lane head (plain text) before the list is mounted: the
    // scroll starts once the list itself holds the newest message, as it did before the head existed.
    await page.waitForFunction(
      ([selector, needle]) => document.querySelector(selector)?.textContent?.includes(needle) ?? false,
      [scroller, NEWEST] as const,
      { timeout: ctx.timeoutMs },
    );
    await page.waitForTimeout(300);
    // At most two steps per message: a list that never reaches its top still ends.
    const scroll: ScrollResult = await page.evaluate(
      ([selector, step, max]) => window.__bench.scrollToTop(selector, step, max),
      // A whole-file answer is many views tall on the bare page (its text is all there).
      [scroller, STEP, count * 2 + bigAnswers * 150] as const,
    );
    // The frame figures stand either way; the step count only if the oldest message came on screen.
    const reachedOldest = await waitPainted(page, OLDEST, 5000, 'the oldest message').then(
      () => true,
      () => false,
    );
    const heap = await heapAfterGc(cdp);
    const frames = scroll.frameTimes;
    return {
      p50: percentile(frames, 50),
      p95: percentile(frames, 95),
      slowFrames: frames.filter((t) => t > 50).length,
      worstFrame: Math.max(0, ...frames),
      steps: reachedOldest ? scroll.steps : missing(`the oldest message was not on screen after ${scroll.steps} steps`),
      heap,
    };
  } finally {
    await context.close();
  }
}

const bare = (key: string) => `bare${key[0]!.toUpperCase()}${key.slice(1)}`;

export async function longLane(ctx: ScenarioContext): Promise<Sample[]> {
  const count = ctx.quick ? 500 : 10_000;
  const big = bigLaneSizes(ctx.quick);
  const server = await startBenchServer(ctx.site.dir, false);
  const appPath = `/${laneHash(LANE)}`;
  const barePath = `/bench/bare/long-lane.html#lane=${encodeURIComponent(LANE)}`;
  try {
    return await ctx.repeat(async (run) => {
      const sample: Sample = {};
      const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      for (const who of order) {
        if (who === 'app') {
          await ctx.measure(sample, ['p50', 'p95', 'slowFrames', 'steps', 'heap'], async () => {
            const m = await measure(ctx, server, count, appPath, '[role=log]');
            delete m.worstFrame;
            Object.assign(sample, m);
          });
        } else {
          await ctx.measure(sample, ['bareP50', 'bareP95', 'bareSlowFrames', 'bareHeap'], async () => {
            const m = await measure(ctx, server, count, barePath, '#list');
            for (const key of ['p50', 'p95', 'slowFrames', 'heap']) sample[bare(key)] = m[key]!;
          });
        }
      }
      // The lane with whole-file answers, the other way round first.
      for (const who of [...order].reverse()) {
        const keys = ['bigP95', 'bigSlowFrames', 'bigWorstFrame'].map((key) => (who === 'app' ? key : bare(key)));
        await ctx.measure(sample, keys, async () => {
          const m =
            who === 'app'
              ? await measure(ctx, server, big.count, appPath, '[role=log]', big.big)
              : await measure(ctx, server, big.count, barePath, '#list', big.big);
          [sample[keys[0]!], sample[keys[1]!], sample[keys[2]!]] = [m.p95!, m.slowFrames!, m.worstFrame!];
        });
      }
      return sample;
    });
  } finally {
    await server.close();
  }
}
