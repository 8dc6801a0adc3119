// Scenario 9, big answer: the demo agent answers with a whole file in one code block (`/file`), asked
// by another device. (1) A 3,000-line block arriving at once: the longest main-thread task from
// message.start until the answer is painted and settled (highlighting included), and the time from
// "Show all 3,000 lines" to the last line painted. (2) A 150 KB file streamed as 5,000 updates: the
// longest task from message.start until the final text is painted (and the longest from message.stop
// on: the reply's end apart from the stream), and the lag from the frame that first carried the final
// text (its last line, "— Iris demo agent", below the block) to that line painted.
// Bare page: the reply's final text put in one <pre> at message.stop, and nothing else.
import type { Page } from '@playwright/test';
import { newBenchPage, newContext, probe, waitPainted, type BenchPage } from '../lib/browser';
import { LANE, askAgent } from '../lib/drive';
import { missing, NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { openLane, pairApp, settle, waitFor } from '../lib/app';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { BareAnswerApi } from '../bare/answer';

interface Sizes {
  /** Lines of the block that arrives at once. */
  block: number;
  /** Lines and updates of the streamed file. */
  streamLines: number;
  updates: number;
}

export const bigAnswerSizes = (quick: boolean): Sizes =>
  quick ? { block: 300, streamLines: 200, updates: 500 } : { block: 3000, streamLines: 2000, updates: 5000 };

const n = (v: number) => v.toLocaleString('en-US');

export const bigAnswerDefs = ({ block, streamLines, updates }: Sizes): FigureDef[] => [
  {
    key: 'blockTask',
    figure: `${n(block)}-line code block: longest main-thread task (0 = none over 50 ms)`,
    unit: 'ms',
    bare: 'bareBlockTask',
  },
  { key: 'blockTasks', figure: `${n(block)}-line code block: long tasks`, unit: 'count', bare: 'bareBlockTasks' },
  { key: 'blockLag', figure: `${n(block)}-line code block: message.stop → painted`, unit: 'ms', bare: 'bareBlockLag' },
  { key: 'showAll', figure: `"Show all ${n(block)} lines" → last line painted (scrolled to it)`, unit: 'ms' },
  { key: 'showAllTask', figure: `"Show all ${n(block)} lines": longest task (0 = none over 50 ms)`, unit: 'ms' },
  {
    key: 'streamTask',
    figure: `${n(streamLines)}-line file streamed as ${n(updates)} updates: longest task (0 = none over 50 ms)`,
    unit: 'ms',
    bare: 'bareStreamTask',
  },
  { key: 'streamTasks', figure: 'streamed file: long tasks', unit: 'count', bare: 'bareStreamTasks' },
  {
    key: 'streamEndTask',
    figure: 'streamed file: longest task from message.stop on (0 = none over 50 ms)',
    unit: 'ms',
    bare: 'bareStreamEndTask',
  },
  {
    key: 'streamLag',
    figure: 'streamed file: frame with the final text → final text painted',
    unit: 'ms',
    bare: 'bareStreamLag',
  },
  { key: 'streamKB', figure: 'streamed file: final text', unit: 'KiB' },
];

/**
 * The app, paired and on the lane, or the bare page, connected; `needle` watched from the start (its paint,
 * and `frameNeedle`'s first frame when given).
 */
async function openPage(
  ctx: ScenarioContext,
  who: 'app' | 'bare',
  server: BenchServer,
  needle: string,
  frameNeedle?: string,
): Promise<BenchPage> {
  const context = await newContext(ctx.browser);
  const bench = await newBenchPage(context, ctx.site.instrument, {
    paintNeedles: [needle],
    ...(frameNeedle !== undefined && { frameNeedle }),
  });
  if (who === 'app') {
    await pairApp(bench.page, server, ctx.timeoutMs);
    await openLane(bench.page, server, LANE, ctx.timeoutMs);
    await settle(
      () => bench.page.evaluate(() => [window.__bench.idb.writes, window.__bench.ws.times.length]),
      500,
      10_000,
    );
  } else {
    await bench.page.goto(`${server.url}/bench/bare/answer.html`);
    await bench.page.waitForFunction(() => 'bench' in window);
    await bench.page.evaluate(
      ([url, token]) => (window as unknown as { bench: BareAnswerApi }).bench.connect(url, token),
      [server.wsUrl, server.token] as const,
    );
  }
  return bench;
}

const quiet = (page: Page) =>
  settle(
    () =>
      page.evaluate(() => [
        window.__bench.idb.writes,
        window.__bench.longTasks?.length ?? 0,
        document.body.textContent?.length ?? 0,
      ]),
    1000,
    30_000,
  );

/** Longest task and count of long tasks that ended at or after `from`. */
async function tasksSince(page: Page, from: number): Promise<{ longest: number; count: number }> {
  const tasks = (await probe(page)).longTasks;
  if (!tasks) throw new NotMeasured('no long task timing in this browser');
  const within = tasks.filter(([start, duration]) => start + duration >= from);
  return { longest: Math.max(0, ...within.map(([, d]) => d)), count: within.length };
}

/** Asks for `/file lines updates` and waits for the answer painted: [message.start, message.stop, painted]. */
async function receive(
  ctx: ScenarioContext,
  page: Page,
  server: BenchServer,
  lines: number,
  updates: number,
  needle: string,
): Promise<[number, number, number]> {
  const from = (await probe(page)).ws.times.length;
  await askAgent(server, `/file ${lines} ${updates}`);
  await waitFor(
    page,
    (i) => window.__bench.ws.types.indexOf('message.stop', i) >= 0,
    from,
    ctx.timeoutMs,
    'the answer did not end (no message.stop)',
  );
  const painted = await waitPainted(page, needle, ctx.timeoutMs, 'the answer');
  const data = await probe(page);
  const types = data.ws.types;
  const start = types.indexOf('message.start', from);
  const stop = types.indexOf('message.stop', from);
  return [data.ws.times[start]!, data.ws.times[stop]!, painted];
}

export async function bigAnswer(ctx: ScenarioContext): Promise<Sample[]> {
  const sizes = bigAnswerSizes(ctx.quick);
  return ctx.repeat(async (run) => {
    const sample: Sample = {};
    const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
    for (const who of order) {
      const p = who === 'app' ? '' : 'bare';
      const key = (k: string) => (p ? p + k[0]!.toUpperCase() + k.slice(1) : k);

      // (1) The whole block at once.
      await ctx.measure(
        sample,
        [key('blockTask'), key('blockTasks'), key('blockLag'), ...(who === 'app' ? ['showAll', 'showAllTask'] : [])],
        async () => {
          const server = await startBenchServer(ctx.site.dir, true);
          const needle = `, ${sizes.block} lines:`;
          const bench = await openPage(ctx, who, server, needle);
          try {
            const [start, stop, painted] = await receive(ctx, bench.page, server, sizes.block, 1, needle);
            await quiet(bench.page);
            const tasks = await tasksSince(bench.page, start);
            Object.assign(sample, {
              [key('blockTask')]: tasks.longest,
              [key('blockTasks')]: tasks.count,
              [key('blockLag')]: Math.max(0, painted - stop),
            });
            if (who === 'app') {
              const button = bench.page.getByRole('button', { name: `Show all ${n(sizes.block)} lines` });
              if (!(await button.count()))
                throw new NotMeasured(`the answer offered no "Show all ${n(sizes.block)} lines"`);
              // Its comment: one text node even when highlighted (the whole line is split into tokens).
              const last = `// line ${sizes.block} of the file`;
              const clicked = await bench.page.evaluate(() => performance.now());
              await button.click();
              // The person then scrolls to the end of the block (as soon as it is in the page).
              const painted = waitPainted(bench.page, last, ctx.timeoutMs, 'the last line');
              await bench.page.evaluate(async (text) => {
                for (;;) {
                  const chunk = [...document.querySelectorAll('pre code > *')].find(
                    (el) => el.textContent?.includes(`${text}\n`) || el.textContent?.endsWith(text),
                  );
                  if (chunk) return chunk.scrollIntoView({ block: 'end' });
                  await new Promise((resolve) => requestAnimationFrame(resolve));
                }
              }, last);
              const shown = await painted;
              await quiet(bench.page);
              const after = await tasksSince(bench.page, clicked);
              Object.assign(sample, { showAll: shown - clicked, showAllTask: after.longest });
            }
          } finally {
            await bench.page.context().close();
            await server.close();
          }
        },
      );

      // (2) The file streamed in.
      await ctx.measure(
        sample,
        [
          key('streamTask'),
          key('streamTasks'),
          key('streamEndTask'),
          key('streamLag'),
          ...(who === 'app' ? ['streamKB'] : []),
        ],
        async () => {
          const server = await startBenchServer(ctx.site.dir, true);
          // The answer's last line (fileScript's signature): the agent's name alone is in every bubble's header.
          const needle = '— Iris demo agent';
          const bench = await openPage(ctx, who, server, needle, needle);
          try {
            const [start, stop, painted] = await receive(
              ctx,
              bench.page,
              server,
              sizes.streamLines,
              sizes.updates,
              needle,
            );
            await quiet(bench.page);
            const tasks = await tasksSince(bench.page, start);
            // The end of the reply (final text stored, rendered, indexed) apart from the stream itself.
            const end = await tasksSince(bench.page, stop);
            const finalAt = (await probe(bench.page)).ws.needleAt;
            Object.assign(sample, {
              [key('streamTask')]: tasks.longest,
              [key('streamTasks')]: tasks.count,
              [key('streamEndTask')]: end.longest,
              [key('streamLag')]:
                finalAt === undefined ? missing('no frame carried the final text') : Math.max(0, painted - finalAt),
            });
            if (who === 'app') {
              const bytes =
                server.server.gateway!.store.messages(LANE).findLast((m) => m.role === 'assistant')?.text.length ?? 0;
              sample.streamKB = bytes / 1024;
            }
          } finally {
            await bench.page.context().close();
            await server.close();
          }
        },
      );
    }
    return sample;
  });
}
