// Scenario 8, paste: a log of S KB put on the clipboard and pasted into the composer with the
// keyboard (one Ctrl+V, as a person does), then one more key typed. Measured in the page: the longest
// main-thread task from the paste until things settled (drafts are written after a pause, so their
// write is inside), the paste key → the next painted frame, and the typed key → painted. Bare page: a
// textarea and nothing else, pasted into the same way.
import type { Page } from '@playwright/test';
import { newBenchPage, newContext, probe, type BenchPage } from '../lib/browser';
import { LANE } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { openLane, pairApp, settle, waitFor } from '../lib/app';
import { startBenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';

const KB = 1000;

export const pasteSizes = (quick: boolean): number[] => (quick ? [20] : [20, 200, 1000]);

const label = (kb: number) => (kb >= 1000 ? `${kb / 1000} MB` : `${kb} KB`);

export const pasteDefs = (sizes: number[]): FigureDef[] =>
  sizes.flatMap((kb) => [
    {
      key: `task${kb}`,
      figure: `${label(kb)} paste: longest main-thread task (0 = none over 50 ms)`,
      unit: 'ms' as const,
      bare: `bareTask${kb}`,
    },
    {
      key: `paint${kb}`,
      figure: `${label(kb)} paste: Ctrl+V → next frame painted`,
      unit: 'ms' as const,
      bare: `barePaint${kb}`,
    },
    {
      key: `type${kb}`,
      figure: `${label(kb)} paste: a key typed after it → painted`,
      unit: 'ms' as const,
      bare: `bareType${kb}`,
    },
  ]);

/** A log of `bytes` characters, one request per line (what people paste to ask about). */
function logText(bytes: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let n = 0; total < bytes; n++) {
    const line = `2026-12-01T09:${String(n % 60).padStart(2, '0')}:${String(n % 59).padStart(2, '0')}Z INFO worker[${n % 16}] "GET /api/v1/items/${n}" 200 in ${n % 97} ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

async function keyPaints(page: Page): Promise<number> {
  return page.evaluate(() => window.__bench.keyPaints.length);
}

/** Presses `key` and returns its key → painted time (ms). */
async function pressTimed(page: Page, key: string, timeoutMs: number): Promise<number> {
  const before = await keyPaints(page);
  await page.keyboard.press(key);
  await waitFor(
    page,
    (n) => window.__bench.keyPaints.length > n,
    before,
    timeoutMs,
    `no frame was painted after ${key}`,
  );
  const [at, painted] = (await probe(page)).keyPaints[before]!;
  return painted - at;
}

/** One paste into `box` of `page`: the three figures; `check` says whether the text arrived whole. */
async function measurePaste(
  bench: BenchPage,
  box: () => Promise<void>,
  text: string,
  check: () => Promise<string | undefined>,
  timeoutMs: number,
): Promise<{ task: number; paint: number; type: number }> {
  const { page } = bench;
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await box();
  const from = await page.evaluate(() => performance.now());
  const paint = await pressTimed(page, 'ControlOrMeta+V', timeoutMs);
  // Waited for, not looked at once: the app's pasted-text card comes with its own code, which a paste
  // right after the lane opened can still be fetching (one full run in two: "no pasted text").
  let wrong = await check();
  for (const end = Date.now() + Math.min(timeoutMs, 10_000); wrong && Date.now() < end; wrong = await check())
    await page.waitForTimeout(50);
  if (wrong) throw new NotMeasured(wrong);
  // Until the page is quiet: debounced draft writes and anything else the paste set off.
  await settle(
    () => page.evaluate(() => [window.__bench.idb.writes, window.__bench.longTasks?.length ?? 0]),
    800,
    20_000,
  );
  const type = await pressTimed(page, 'x', timeoutMs);
  await settle(
    () => page.evaluate(() => [window.__bench.idb.writes, window.__bench.longTasks?.length ?? 0]),
    800,
    20_000,
  );
  const tasks = (await probe(page)).longTasks;
  if (!tasks) throw new NotMeasured('no long task timing in this browser');
  const task = Math.max(
    0,
    ...tasks.filter(([start, duration]) => start + duration >= from).map(([, duration]) => duration),
  );
  return { task, paint, type };
}

export async function paste(ctx: ScenarioContext): Promise<Sample[]> {
  const sizes = pasteSizes(ctx.quick);
  const texts = new Map(sizes.map((kb) => [kb, logText(kb * KB)]));
  return ctx.repeat(async (run) => {
    const sample: Sample = {};
    const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
    for (const who of order) {
      const server = await startBenchServer(ctx.site.dir, who === 'app');
      const context = await newContext(ctx.browser);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      try {
        const bench = await newBenchPage(context, ctx.site.instrument);
        const { page } = bench;
        if (who === 'app') {
          await pairApp(page, server, ctx.timeoutMs);
          await openLane(page, server, LANE, ctx.timeoutMs);
          await settle(
            () => page.evaluate(() => [window.__bench.idb.writes, window.__bench.ws.times.length]),
            500,
            10_000,
          );
        } else {
          await page.goto(`${server.url}/bench/bare/paste.html`);
        }
        const box = page.getByRole('textbox', { name: 'Message' });
        for (const kb of sizes) {
          const text = texts.get(kb)!;
          const keys =
            who === 'app'
              ? [`task${kb}`, `paint${kb}`, `type${kb}`]
              : [`bareTask${kb}`, `barePaint${kb}`, `bareType${kb}`];
          await ctx.measure(sample, keys, async () => {
            const check =
              who === 'app'
                ? async () => {
                    // The app keeps a long paste collapsed beside the textbox, named by its line count.
                    const typed = (await box.inputValue()).length;
                    if (typed === text.length) return undefined;
                    const card = page.getByRole('group', { name: /^Pasted text/ });
                    if (!(await card.count()))
                      return `the composer holds ${typed} of ${text.length} characters and no pasted text`;
                    const lines = `${text.split('\n').length.toLocaleString('en-US')} lines`;
                    const name = (await card.getAttribute('aria-label')) ?? '';
                    return name.includes(lines) ? undefined : `the pasted text is "${name}", not ${lines}`;
                  }
                : async () => {
                    const length = (await box.inputValue()).length;
                    return length === text.length
                      ? undefined
                      : `the textarea holds ${length} characters, not ${text.length}`;
                  };
            const m = await measurePaste(bench, () => box.focus(), text, check, ctx.timeoutMs);
            if (who === 'app')
              Object.assign(sample, { [`task${kb}`]: m.task, [`paint${kb}`]: m.paint, [`type${kb}`]: m.type });
            else
              Object.assign(sample, {
                [`bareTask${kb}`]: m.task,
                [`barePaint${kb}`]: m.paint,
                [`bareType${kb}`]: m.type,
              });
          });
          // Empty again for the next size.
          if (who === 'app') {
            const remove = page.getByRole('button', { name: 'Remove pasted text' });
            if (await remove.count()) await remove.click();
          }
          await box.fill('');
        }
      } finally {
        await context.close();
        await server.close();
      }
    }
    return sample;
  });
}
