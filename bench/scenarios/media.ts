// Scenario 7, media: another device sends a file of S MiB in the lane; the app, open on that lane,
// shows it as a document with a Download button, which the harness clicks. Timed in the page from the
// app's media.pull request to the commit of the transaction that stored the bytes (mediaBlobs); long
// tasks in the same span. Bare page: the same bytes received as binary frames and counted.
import { longTasksBetween, newBenchPage, newContext, probe } from '../lib/browser';
import { LANE, uploadMedia } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { openLane, pairApp, waitFor } from '../lib/app';
import { startBenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { BareMediaApi } from '../bare/media';

const MiB = 1024 * 1024;
const FILENAME = 'bench.bin';

export const mediaDefs = (mib: number): FigureDef[] => [
  {
    key: 'throughput',
    figure: `pull of a ${mib} MiB file (media.pull → bytes stored)`,
    unit: 'MiB/s',
    bare: 'bareThroughput',
  },
  { key: 'ms', figure: 'pull time', unit: 'ms', bare: 'bareMs' },
  { key: 'longTasks', figure: 'main-thread long tasks during the pull', unit: 'count', bare: 'bareLongTasks' },
  { key: 'longTaskMs', figure: 'main-thread long tasks during the pull, total', unit: 'ms', bare: 'bareLongTaskMs' },
];

export async function media(ctx: ScenarioContext): Promise<Sample[]> {
  const size = (ctx.quick ? 2 : 20) * MiB;
  return ctx.repeat(async (run) => {
    const sample: Sample = {};
    const server = await startBenchServer(ctx.site.dir, true);
    const appContext = await newContext(ctx.browser);
    const bareContext = await newContext(ctx.browser);
    try {
      // Both pages are connected before the file is sent, so both learn of it the same way.
      const app = await newBenchPage(appContext, ctx.site.instrument);
      await pairApp(app.page, server, ctx.timeoutMs);
      await openLane(app.page, server, LANE, ctx.timeoutMs);
      const bare = await newBenchPage(bareContext, ctx.site.instrument);
      await bare.page.goto(`${server.url}/bench/bare/media.html`);
      await bare.page.waitForFunction(() => 'bench' in window);
      await bare.page.evaluate(
        ([url, token]) => (window as unknown as { bench: BareMediaApi }).bench.connect(url, token),
        [server.wsUrl, server.token] as const,
      );
      const mediaId = await uploadMedia(server, size, FILENAME);

      const order = run % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
      for (const who of order) {
        if (who === 'app') {
          await ctx.measure(sample, ['throughput', 'ms', 'longTasks', 'longTaskMs'], async () => {
            // Named as it reads, words first: "Download, 20 MB, bench.bin" (MediaFetch).
            const button = app.page.getByRole('button', {
              name: new RegExp(`^Download, .+, ${FILENAME.replace('.', '\\.')}$`),
            });
            try {
              await button.waitFor({ state: 'visible', timeout: ctx.timeoutMs });
            } catch {
              throw new NotMeasured(`the lane showed no "Download, …, ${FILENAME}" button`);
            }
            await button.click();
            await waitFor(
              app.page,
              () => window.__bench.idb.mediaBlobCommits.length > 0,
              0,
              ctx.timeoutMs,
              'the app did not store the file',
            );
            const data = await probe(app.page);
            const start = data.ws.sentAt['media.pull'];
            const end = data.idb.mediaBlobCommits[0]!;
            if (start === undefined) throw new NotMeasured('the app sent no media.pull');
            const stored = await app.page.evaluate(
              (id) =>
                new Promise<number>((resolve) => {
                  const opening = indexedDB.open('iris');
                  opening.onsuccess = () => {
                    const read = opening.result.transaction('mediaBlobs').objectStore('mediaBlobs').get(id);
                    read.onsuccess = () => resolve((read.result as { blob?: Blob } | undefined)?.blob?.size ?? -1);
                  };
                }),
              mediaId,
            );
            if (stored !== size) throw new NotMeasured(`the app stored ${stored} bytes, not ${size}`);
            const tasks = longTasksBetween(data, start, end);
            const ms = end - start;
            Object.assign(sample, {
              throughput: size / MiB / (ms / 1000),
              ms,
              ...(tasks ? { longTasks: tasks.count, longTaskMs: tasks.total } : {}),
            });
          });
        } else {
          await ctx.measure(sample, ['bareThroughput', 'bareMs', 'bareLongTasks', 'bareLongTaskMs'], async () => {
            const pulled = await bare.page.evaluate(
              (id) => (window as unknown as { bench: BareMediaApi }).bench.pull(id),
              mediaId,
            );
            if (pulled.bytes !== size)
              throw new NotMeasured(`the bare page received ${pulled.bytes} bytes, not ${size}`);
            const tasks = longTasksBetween(await probe(bare.page), pulled.start, pulled.end);
            Object.assign(sample, {
              bareThroughput: size / MiB / (pulled.ms / 1000),
              bareMs: pulled.ms,
              ...(tasks ? { bareLongTasks: tasks.count, bareLongTaskMs: tasks.total } : {}),
            });
          });
        }
      }
    } finally {
      await appContext.close();
      await bareContext.close();
      await server.close();
    }
    return sample;
  });
}
