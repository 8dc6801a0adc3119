// Scenario 3, streaming: the gateway streams one reply as N message.update frames as fast as it can
// (`/stream N`, tools every 500), started by another device. Measured in the page that receives it:
// frames per second, updates received (the gateway skips updates while a socket is backed up),
// IndexedDB writes, long tasks, and the lag from the frame that first carried the final text to that
// text painted. Bare page: a WebSocket that only receives and counts, painting the final text once.
import { longTasksBetween, newBenchPage, newContext, probe, waitPainted, type BenchPage } from '../lib/browser';
import { LANE, startStream } from '../lib/drive';
import { missing, NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { openLane, pairApp, settle, waitFor } from '../lib/app';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { BareStreamApi } from '../bare/stream';
import type { BenchProbe } from '../inpage/benchApi';

/** How long the final text may take to be painted once the last frame is in (full, quick). */
const AFTER_STOP_MS = { full: 60_000, quick: 20_000 };

export const streamingDefs = (n: number): FigureDef[] => [
  {
    key: 'fps',
    figure: `frames received per second (reply of ${n.toLocaleString('en-US')} updates)`,
    unit: 'frames/s',
    bare: 'bareFps',
  },
  {
    key: 'updates',
    figure: `message.update frames received (of ${n.toLocaleString('en-US')} sent)`,
    unit: 'count',
    bare: 'bareUpdates',
  },
  { key: 'duration', figure: 'message.start → message.stop received', unit: 'ms', bare: 'bareDuration' },
  { key: 'writes', figure: 'IndexedDB writes (put/add/delete) during the reply', unit: 'count' },
  { key: 'transactions', figure: 'IndexedDB readwrite transactions during the reply', unit: 'count' },
  { key: 'longTasks', figure: 'main-thread long tasks (>50 ms)', unit: 'count', bare: 'bareLongTasks' },
  { key: 'longTaskMs', figure: 'main-thread long tasks, total', unit: 'ms', bare: 'bareLongTaskMs' },
  { key: 'lag', figure: 'frame with the final text → final text painted', unit: 'ms', bare: 'bareLag' },
];

type StreamFigures = Record<
  'fps' | 'updates' | 'duration' | 'writes' | 'transactions' | 'longTasks' | 'longTaskMs' | 'lag',
  number | { missing: string }
>;

/** Figures of one received reply, from the probe before and after it; `painted` is undefined if it never was. */
function figuresOf(
  before: BenchProbe,
  after: BenchProbe,
  painted: number | undefined,
  notPainted: string,
): StreamFigures {
  const from = before.ws.times.length;
  const types = after.ws.types.slice(from);
  const times = after.ws.times.slice(from);
  const start = types.indexOf('message.start');
  const stop = types.lastIndexOf('message.stop');
  if (start < 0 || stop < 0) throw new NotMeasured('the reply was not received whole (no message.start/stop)');
  const elapsed = times[stop]! - times[start]!;
  const needleAt = after.ws.needleAt;
  // Work is counted until the final text was painted (or, if it never was, until the last frame).
  const end = painted ?? times[stop]!;
  const within = (list: number[]) => list.filter((t) => t >= times[start]! && t <= end).length;
  const tasks = longTasksBetween(after, times[start]!, end);
  const noTasks = missing('no long task timing in this browser');
  return {
    fps: ((stop - start + 1) / Math.max(elapsed, 1)) * 1000,
    updates: types.slice(start, stop + 1).filter((t) => t === 'message.update').length,
    duration: elapsed,
    writes: within(after.idb.writeTimes),
    transactions: within(after.idb.readwriteTimes),
    longTasks: tasks ? tasks.count : noTasks,
    longTaskMs: tasks ? tasks.total : noTasks,
    lag:
      painted === undefined
        ? missing(notPainted)
        : needleAt === undefined
          ? missing('no frame carried the final text')
          : Math.max(0, painted - needleAt),
  };
}

async function receive(
  ctx: ScenarioContext,
  bench: BenchPage,
  server: BenchServer,
  n: number,
  needle: string,
): Promise<StreamFigures> {
  const before = await probe(bench.page);
  await startStream(server, n);
  await waitFor(
    bench.page,
    (from) => window.__bench.ws.types.lastIndexOf('message.stop') >= from,
    before.ws.times.length,
    ctx.timeoutMs,
    'the reply did not end (no message.stop)',
  );
  const afterStop = ctx.quick ? AFTER_STOP_MS.quick : AFTER_STOP_MS.full;
  let painted: number | undefined;
  let notPainted = '';
  try {
    painted = await waitPainted(bench.page, needle, afterStop, 'the final text');
  } catch (error) {
    if (!(error instanceof NotMeasured)) throw error;
    const inPage = await bench.page.evaluate((text) => document.body.textContent?.includes(text) ?? false, needle);
    notPainted = inPage
      ? `the final text was in the page but not on screen ${afterStop / 1000} s after the last frame`
      : `the final text was not in the page ${afterStop / 1000} s after the last frame`;
    ctx.log(`  note: ${notPainted}`);
  }
  return figuresOf(before, await probe(bench.page), painted, notPainted);
}

async function measureApp(ctx: ScenarioContext, n: number): Promise<StreamFigures> {
  const server = await startBenchServer(ctx.site.dir, true);
  const context = await newContext(ctx.browser);
  try {
    const needle = `w${n}`;
    const bench = await newBenchPage(context, ctx.site.instrument, {
      paintNeedles: [needle],
      frameNeedle: `${needle} "`,
    });
    await pairApp(bench.page, server, ctx.timeoutMs);
    await openLane(bench.page, server, LANE, ctx.timeoutMs);
    // Let the first sync, history and catalog land before the reply starts.
    await settle(
      () => bench.page.evaluate(() => [window.__bench.idb.writes, window.__bench.ws.times.length]),
      500,
      10_000,
    );
    return await receive(ctx, bench, server, n, needle);
  } finally {
    await context.close();
    await server.close();
  }
}

async function measureBare(ctx: ScenarioContext, n: number): Promise<StreamFigures> {
  const server = await startBenchServer(ctx.site.dir, true);
  const context = await newContext(ctx.browser);
  try {
    const needle = `w${n}`;
    const bench = await newBenchPage(context, ctx.site.instrument, {
      paintNeedles: [needle],
      frameNeedle: `${needle} "`,
    });
    await bench.page.goto(`${server.url}/bench/bare/stream.html`);
    await bench.page.waitForFunction(() => 'bench' in window);
    await bench.page.evaluate(
      ([url, token]) => (window as unknown as { bench: BareStreamApi }).bench.connect(url, token),
      [server.wsUrl, server.token] as const,
    );
    return await receive(ctx, bench, server, n, needle);
  } finally {
    await context.close();
    await server.close();
  }
}

export async function streaming(ctx: ScenarioContext): Promise<Sample[]> {
  const n = ctx.quick ? 1000 : 5000;
  return ctx.repeat(async (run) => {
    const sample: Sample = {};
    const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
    for (const who of order) {
      if (who === 'app') {
        await ctx.measure(
          sample,
          ['fps', 'updates', 'duration', 'writes', 'transactions', 'longTasks', 'longTaskMs', 'lag'],
          async () => {
            Object.assign(sample, await measureApp(ctx, n));
          },
        );
      } else {
        await ctx.measure(
          sample,
          ['bareFps', 'bareUpdates', 'bareDuration', 'bareLongTasks', 'bareLongTaskMs', 'bareLag'],
          async () => {
            const m = await measureBare(ctx, n);
            Object.assign(sample, {
              bareFps: m.fps,
              bareUpdates: m.updates,
              bareDuration: m.duration,
              bareLongTasks: m.longTasks,
              bareLongTaskMs: m.longTaskMs,
              bareLag: m.lag,
            });
          },
        );
      }
    }
    return sample;
  });
}
