// Scenario 4, sync catch-up: the app's device goes offline (its page closes) while another device
// chats until N frames are outboxed for it; then the app opens again. Timed in the page from the
// `sync` request to the commit of the transaction that stored the sync.done cursor (the app stores
// it with the replayed frames). Bare pages: one Dexie bulkPut of the same frames (taken from a
// second offline device's identical outbox), and only receiving them (a third device's outbox: the
// gateway writes a replay at once, so its arrival in the page is a floor of its own).
import { longTasksBetween, newBenchPage, newContext, probe } from '../lib/browser';
import { fillOutbox, LANE, registerOfflineDevice } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { laneHash, openLane, pairApp, waitFor } from '../lib/app';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';
import type { BareSyncApi } from '../bare/sync';
import type { BareReceiptApi } from '../bare/receipt';
import { TestClient } from '../../server/gateway/testclient';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * BENCH_PROFILE=<dir>: for looking into a run, not for its figures (profiling slows the page). The
 * catch-up page's CPU profile (DevTools' Profiler, from navigation to the cursor stored) and its
 * long-animation-frame entries (Chromium names the scripts of each frame over 50 ms) go to <dir>.
 */
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** BENCH_PROFILE_CPU=0: the long-animation-frame entries only, without the CPU profile's overhead. */
const CPU_PROFILE = process.env.BENCH_PROFILE_CPU !== '0';
/**
 * BENCH_TRACE=<dir>: a Chrome trace of the catch-up page (each main-thread task with its wall and CPU
 * time: on a loaded machine a task's wall time is mostly waiting for a core), for looking into a run.
 */
const TRACE_DIR = process.env.BENCH_TRACE;
const LOAF_OBSERVER = `window.__loaf = []; try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__loaf.push(e.toJSON()); }).observe({ type: 'long-animation-frame', buffered: true }); } catch {}`;

const SHADOW = 'bench-shadow';
const RECEIVER = 'bench-receiver';
const OWN = new Set([SHADOW, RECEIVER, 'bench-producer', 'bench-trigger', 'bench-uploader']);

export const syncDefs = (n: number): FigureDef[] => [
  {
    key: 'catchUp',
    figure: `sync sent → sync.done applied and cursor stored (${n.toLocaleString('en-US')} frames outboxed)`,
    unit: 'ms',
    bare: 'bulkPut',
  },
  { key: 'replayed', figure: 'frames replayed', unit: 'count', bare: 'bareRecords' },
  // The other floor: a page that only receives the replay (bare/receipt). The catch-up cannot end
  // before sync.done has arrived, so it is bounded by max(bulkPut, receipt).
  {
    key: 'catchUp',
    figure: 'sync sent → cursor stored, against a page that only receives the replay',
    unit: 'ms',
    bare: 'receiptOnly',
  },
  // Where the time goes: the replay's arrival in the app (the gateway's send, the socket, the page's event loop).
  { key: 'received', figure: 'sync sent → sync.done received', unit: 'ms', bare: 'receiptOnly' },
  { key: 'fromNavigation', figure: 'navigation → cursor stored', unit: 'ms' },
  { key: 'transactions', figure: 'IndexedDB readwrite transactions during catch-up', unit: 'count' },
  { key: 'longTasks', figure: 'main-thread long tasks during catch-up', unit: 'count' },
  { key: 'longTaskMs', figure: 'main-thread long tasks during catch-up, total', unit: 'ms' },
  // Target: none over 50 ms (0 when there was no long task at all).
  { key: 'longestTask', figure: 'main-thread longest task during catch-up', unit: 'ms' },
];

/** The shadow device's replay: the same frames the app's device had outboxed, as raw text. */
async function shadowFrames(server: BenchServer): Promise<string[]> {
  const c = await TestClient.paired(server.wsUrl, { token: server.token, device_id: SHADOW });
  try {
    const from = c.raw.length;
    await c.request('sync', { cursor: 0 }, {}, 120_000);
    return c.raw.slice(from).filter((text) => !text.startsWith('{"v":1,"type":"sync.done"'));
  } finally {
    await c.close();
  }
}

async function oneRun(ctx: ScenarioContext, n: number, sample: Sample): Promise<void> {
  const server = await startBenchServer(ctx.site.dir, true);
  const context = await newContext(ctx.browser);
  try {
    const devices = server.server.gateway!.store.devices;
    await registerOfflineDevice(server, SHADOW);
    await registerOfflineDevice(server, RECEIVER);
    const first = await newBenchPage(context, ctx.site.instrument);
    await pairApp(first.page, server, ctx.timeoutMs);
    await openLane(first.page, server, LANE, ctx.timeoutMs);
    const appDevice = devices.ids().find((id) => !OWN.has(id));
    if (!appDevice) throw new Error('the app did not register a device with the gateway');
    await first.page.close();
    const deadline = Date.now() + ctx.timeoutMs;
    while (server.server.gateway!.connectionCount() > 0) {
      if (Date.now() > deadline) throw new NotMeasured('the app did not disconnect when its page closed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await fillOutbox(server, appDevice, devices.get(appDevice)!.cursor, n);
    const target = devices.get(appDevice)!.cursor;

    await ctx.measure(
      sample,
      ['catchUp', 'replayed', 'received', 'fromNavigation', 'transactions', 'longTasks', 'longTaskMs', 'longestTask'],
      async () => {
        const again = await newBenchPage(context, ctx.site.instrument);
        again.page.on('console', (m) => {
          if (m.type() === 'error') process.stderr.write(`page error: ${m.text()}\n`);
        });
        again.page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
        if (PROFILE_DIR) {
          await again.page.addInitScript({ content: LOAF_OBSERVER });
          if (CPU_PROFILE) {
            await again.cdp.send('Profiler.enable');
            await again.cdp.send('Profiler.setSamplingInterval', { interval: 500 });
            await again.cdp.send('Profiler.start');
          }
        }
        if (TRACE_DIR) {
          mkdirSync(TRACE_DIR, { recursive: true });
          await ctx.browser.startTracing(again.page, {
            path: join(TRACE_DIR, `sync-${Date.now()}.trace.json`),
            categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
          });
        }
        await again.page.goto(`${server.url}/${laneHash(LANE)}`);
        await waitFor(
          again.page,
          (want) => window.__bench.idb.syncCommits.some(([, cursor]) => cursor >= want),
          target,
          ctx.timeoutMs,
          `the app did not store cursor ${target}`,
        );
        const data = await probe(again.page);
        if (TRACE_DIR) {
          await ctx.browser.stopTracing();
          writeFileSync(join(TRACE_DIR, `sync-${Date.now()}.probe.json`), JSON.stringify(data));
        }
        if (PROFILE_DIR) {
          const profile = CPU_PROFILE ? (await again.cdp.send('Profiler.stop')).profile : null;
          const loaf: unknown = await again.page.evaluate(() => (window as unknown as { __loaf: unknown }).__loaf);
          mkdirSync(PROFILE_DIR, { recursive: true });
          const stem = join(PROFILE_DIR, `sync-${Date.now()}`);
          if (profile) writeFileSync(`${stem}.cpuprofile`, JSON.stringify(profile));
          writeFileSync(`${stem}.json`, JSON.stringify({ probe: data, loaf }));
          ctx.log(`  profile: ${stem}.cpuprofile`);
        }
        const stored = data.idb.syncCommits.find(([, cursor]) => cursor >= target);
        if (!stored)
          throw new NotMeasured(
            `the app stored cursor ${Math.max(...data.idb.syncCommits.map(([, c]) => c))}, not ${target}`,
          );
        const sent = data.ws.sentAt.sync;
        if (sent === undefined) throw new NotMeasured('the app sent no sync request');
        const done = data.ws.types.indexOf('sync.done');
        const firstAfterSync = data.ws.times.findIndex((t) => t >= sent);
        // `sent` is the newest sync's: one before it (a chunk failed to store, the app asked again) would
        // time only the last replay.
        if (done < firstAfterSync) throw new NotMeasured('the app synced more than once (a replay failed to store)');
        sample.catchUp = stored[0] - sent;
        sample.replayed = done - firstAfterSync;
        sample.received = data.ws.times[done]! - sent;
        sample.fromNavigation = stored[0];
        sample.transactions = data.idb.readwriteTimes.filter((t) => t >= sent && t <= stored[0]).length;
        const tasks = longTasksBetween(data, sent, stored[0]);
        if (tasks) {
          sample.longTasks = tasks.count;
          sample.longTaskMs = tasks.total;
          sample.longestTask = tasks.longest;
        }
      },
    );

    await ctx.measure(sample, ['bulkPut'], async () => {
      const frames = await shadowFrames(server);
      const bareContext = await newContext(ctx.browser);
      try {
        const bare = await newBenchPage(bareContext, ctx.site.instrument);
        await bare.page.goto(`${server.url}/bench/bare/sync.html`);
        await bare.page.waitForFunction(() => 'bench' in window);
        sample.bulkPut = await bare.page.evaluate(
          (list) => (window as unknown as { bench: BareSyncApi }).bench.bulkPut(list),
          frames,
        );
        sample.bareRecords = frames.length;
      } finally {
        await bareContext.close();
      }
    });

    await ctx.measure(sample, ['receiptOnly'], async () => {
      const bareContext = await newContext(ctx.browser);
      try {
        const bare = await newBenchPage(bareContext, ctx.site.instrument);
        await bare.page.goto(`${server.url}/bench/bare/receipt.html`);
        await bare.page.waitForFunction(() => 'bench' in window);
        const got = await bare.page.evaluate(
          ([url, token, device]) => (window as unknown as { bench: BareReceiptApi }).bench.receive(url, token, device),
          [server.wsUrl, server.token, RECEIVER] as const,
        );
        if (got.frames < n) throw new NotMeasured(`the receipt page got ${got.frames} frames, fewer than ${n}`);
        sample.receiptOnly = got.ms;
      } finally {
        await bareContext.close();
      }
    });
  } finally {
    await context.close();
    await server.close();
  }
}

export async function syncCatchUp(ctx: ScenarioContext): Promise<Sample[]> {
  const n = ctx.quick ? 1000 : 10_000;
  return ctx.repeat(async () => {
    const sample: Sample = {};
    await oneRun(ctx, n, sample);
    return sample;
  });
}
