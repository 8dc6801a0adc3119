// Scenario 5, long lane: N cached messages of mixed length in one lane (gateway stopped). Open it at
// the newest, then scroll to the oldest a step (90% of the viewport) per animation frame: frame times
// (requestAnimationFrame deltas, p50/p95) and the JS heap after scrolling (after a full GC).
// Bare page: the same rows as plain paragraphs, all in the page, scrolled the same way.
import { heapAfterGc, newBenchPage, waitPainted } from '../lib/browser';
import { LANE } from '../lib/drive';
import { missing, percentile, type FigureDef, type Sample } from '../lib/figures';
import { laneHash } from '../lib/app';
import { contextWithLane } from '../lib/seed';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { ScrollResult } from '../inpage/benchApi';

const NEWEST = 'benchNewestL4N';
const OLDEST = 'benchOldestL4N';
const STEP = 0.9;

export const longLaneDefs = (n: number): FigureDef[] => [
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
];

async function measure(
  ctx: ScenarioContext,
  server: BenchServer,
  count: number,
  path: string,
  scroller: string,
): Promise<Sample> {
  const context = await contextWithLane(ctx.browser, server, count, { newest: NEWEST, oldest: OLDEST }, 11);
  try {
    const { page, cdp } = await newBenchPage(context, ctx.site.instrument, { paintNeedles: [NEWEST, OLDEST] });
    await page.goto(`${server.url}${path}`);
    await waitPainted(page, NEWEST, ctx.timeoutMs, 'the newest message');
    await page.waitForTimeout(300);
    // At most two steps per message: a list that never reaches its top still ends.
    const scroll: ScrollResult = await page.evaluate(
      ([selector, step, max]) => window.__bench.scrollToTop(selector, step, max),
      [scroller, STEP, count * 2] as const,
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
      steps: reachedOldest ? scroll.steps : missing(`the oldest message was not on screen after ${scroll.steps} steps`),
      heap,
    };
  } finally {
    await context.close();
  }
}

export async function longLane(ctx: ScenarioContext): Promise<Sample[]> {
  const count = ctx.quick ? 500 : 10_000;
  const server = await startBenchServer(ctx.site.dir, false);
  try {
    return await ctx.repeat(async (run) => {
      const sample: Sample = {};
      const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      for (const who of order) {
        if (who === 'app') {
          await ctx.measure(sample, ['p50', 'p95', 'slowFrames', 'steps', 'heap'], async () => {
            Object.assign(sample, await measure(ctx, server, count, `/${laneHash(LANE)}`, '[role=log]'));
          });
        } else {
          await ctx.measure(sample, ['bareP50', 'bareP95', 'bareSlowFrames', 'bareHeap'], async () => {
            const m = await measure(
              ctx,
              server,
              count,
              `/bench/bare/long-lane.html#lane=${encodeURIComponent(LANE)}`,
              '#list',
            );
            for (const [key, value] of Object.entries(m)) sample[`bare${key[0]!.toUpperCase()}${key.slice(1)}`] = value;
          });
        }
      }
      return sample;
    });
  } finally {
    await server.close();
  }
}
