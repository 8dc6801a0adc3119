// Scenario 7, media: a file of S MiB uploaded by another device and sent in the lane is pulled with
// the app's client.pull (src/client in a page without UI: the media UI calls exactly this), timed
// until the bytes are stored in IndexedDB; long tasks during the pull. Bare page: the same bytes
// received as binary frames and counted, nothing stored.
import { longTasksBetween, newBenchPage, newContext, probe } from '../lib/browser';
import { uploadMedia } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { startBenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { ClientPageApi } from '../pages/client';
import type { BareMediaApi } from '../bare/media';

const MiB = 1024 * 1024;

export const mediaDefs = (mib: number): FigureDef[] => [
  { key: 'throughput', figure: `pull of a ${mib} MiB file, until stored (client.pull)`, unit: 'MiB/s', bare: 'bareThroughput' },
  { key: 'ms', figure: 'pull time', unit: 'ms', bare: 'bareMs' },
  { key: 'longTasks', figure: 'main-thread long tasks during the pull', unit: 'count', bare: 'bareLongTasks' },
  { key: 'longTaskMs', figure: 'main-thread long tasks during the pull, total', unit: 'ms', bare: 'bareLongTaskMs' },
];

export async function media(ctx: ScenarioContext): Promise<Sample[]> {
  const size = (ctx.quick ? 2 : 20) * MiB;
  return ctx.repeat(async (run) => {
    const sample: Sample = {};
    const server = await startBenchServer(ctx.site.dir, true);
    try {
      const appContext = await newContext(ctx.browser);
      const bareContext = await newContext(ctx.browser);
      try {
        // Both pages are connected before the file exists, so both learn of it the same way.
        const app = await newBenchPage(appContext, ctx.site.instrument);
        await app.page.goto(`${server.url}/bench/pages/client.html`);
        await app.page.waitForFunction(() => 'bench' in window);
        await app.page.evaluate(([url, token]) => (window as unknown as { bench: ClientPageApi }).bench.pair(url, token), [server.wsUrl, server.token] as const);
        const bare = await newBenchPage(bareContext, ctx.site.instrument);
        await bare.page.goto(`${server.url}/bench/bare/media.html`);
        await bare.page.waitForFunction(() => 'bench' in window);
        await bare.page.evaluate(([url, token]) => (window as unknown as { bench: BareMediaApi }).bench.connect(url, token), [server.wsUrl, server.token] as const);
        const mediaId = await uploadMedia(server, size);

        const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
        for (const who of order) {
          if (who === 'app') {
            await ctx.measure(sample, ['throughput', 'ms', 'longTasks', 'longTaskMs'], async () => {
              const known = await app.page.evaluate((id) => (window as unknown as { bench: ClientPageApi }).bench.knows(id), mediaId);
              if (!known) ctx.log('  note: the app had no media row for the file before pulling');
              const pulled = await app.page.evaluate((id) => (window as unknown as { bench: ClientPageApi }).bench.pull(id), mediaId);
              if (pulled.bytes !== size) throw new NotMeasured(`the app stored ${pulled.bytes} bytes, not ${size}`);
              const tasks = longTasksBetween(await probe(app.page), pulled.start, pulled.end);
              Object.assign(sample, { throughput: size / MiB / (pulled.ms / 1000), ms: pulled.ms, ...(tasks ? { longTasks: tasks.count, longTaskMs: tasks.total } : {}) });
            });
          } else {
            await ctx.measure(sample, ['bareThroughput', 'bareMs', 'bareLongTasks', 'bareLongTaskMs'], async () => {
              const pulled = await bare.page.evaluate((id) => (window as unknown as { bench: BareMediaApi }).bench.pull(id), mediaId);
              if (pulled.bytes !== size) throw new NotMeasured(`the bare page received ${pulled.bytes} bytes, not ${size}`);
              const tasks = longTasksBetween(await probe(bare.page), pulled.start, pulled.end);
              Object.assign(sample, { bareThroughput: size / MiB / (pulled.ms / 1000), bareMs: pulled.ms, ...(tasks ? { bareLongTasks: tasks.count, bareLongTaskMs: tasks.total } : {}) });
            });
          }
        }
      } finally {
        await appContext.close();
        await bareContext.close();
      }
    } finally {
      await server.close();
    }
    return sample;
  });
}
