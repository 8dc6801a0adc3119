// Scenario 8, resume (the live cursor, spec README §16): the app, open on the lane, receives N frames
// live while another device chats; then the page reloads. The frames it already stored must not come
// again: frames replayed (target 0), and navigation → synced against a reload with an empty outbox
// right after (target within 1.2×). "Synced" is the moment the app's session is synced: it then asks
// for the command catalog, which it does once per sync (the page's own clock, 0 = navigation start).
import { newBenchPage, newContext, probe, type BenchPage } from '../lib/browser';
import { fillOutbox, LANE } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { openLane, pairApp, settle, waitFor } from '../lib/app';
import { startBenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';

const OWN = new Set(['bench-producer', 'bench-trigger', 'bench-uploader']);

export const resumeDefs = (n: number): FigureDef[] => [
  {
    key: 'live',
    figure: `frames received live before the reload (${n.toLocaleString('en-US')} outboxed)`,
    unit: 'count',
  },
  { key: 'replayed', figure: 'frames replayed after the reload (target 0)', unit: 'count' },
  { key: 'replayedEmpty', figure: 'frames replayed after a second reload (empty outbox)', unit: 'count' },
  {
    key: 'synced',
    figure: 'reload: navigation → synced (target ≤ 1.2× an empty outbox)',
    unit: 'ms',
    bare: 'syncedEmpty',
  },
  { key: 'sinceSync', figure: 'reload: sync sent → synced', unit: 'ms', bare: 'sinceSyncEmpty' },
];

/** Reloads the page and waits until its session is synced; the figures of that reload. */
async function reload(
  ctx: ScenarioContext,
  bench: BenchPage,
): Promise<{ replayed: number; synced: number; sinceSync: number }> {
  // The page is left alone first: the work of what it just received is not charged to the reload.
  await settle(
    async () => {
      const p = await probe(bench.page);
      return [p.idb.readwriteTransactions, p.ws.types.length];
    },
    1500,
    ctx.timeoutMs,
  );
  await bench.page.reload();
  await waitFor(
    bench.page,
    () => window.__bench.ws.sentAt['commands.catalog'] !== undefined,
    0,
    ctx.timeoutMs,
    'the app did not become synced after the reload',
  );
  const data = await probe(bench.page);
  const sent = data.ws.sentAt.sync;
  const synced = data.ws.sentAt['commands.catalog']!;
  if (sent === undefined) throw new NotMeasured('the app sent no sync request');
  const done = data.ws.types.indexOf('sync.done');
  const firstAfterSync = data.ws.times.findIndex((t) => t >= sent);
  if (done < 0 || firstAfterSync < 0) throw new NotMeasured('no sync.done after the sync request');
  // Replayed: the outboxed frames (those with a cursor) between the sync request and sync.done. A pong,
  // a reply to another request or a status restated after hello in that window is not a replay.
  const replayed = data.ws.cursors.slice(firstAfterSync, done).filter((c) => c >= 0).length;
  return { replayed, synced, sinceSync: synced - sent };
}

async function oneRun(ctx: ScenarioContext, n: number, sample: Sample): Promise<void> {
  const server = await startBenchServer(ctx.site.dir, true);
  const context = await newContext(ctx.browser);
  try {
    const devices = server.server.gateway!.store.devices;
    const bench = await newBenchPage(context, ctx.site.instrument);
    await pairApp(bench.page, server, ctx.timeoutMs);
    await openLane(bench.page, server, LANE, ctx.timeoutMs);
    const appDevice = devices.ids().find((id) => !OWN.has(id));
    if (!appDevice) throw new NotMeasured('the app did not register a device with the gateway');
    // A first reload, so that both measured reloads follow one (same caches, same compiled code).
    await reload(ctx, bench);

    await ctx.measure(sample, ['live', 'replayed', 'synced', 'sinceSync'], async () => {
      const from = devices.get(appDevice)!.cursor;
      const before = (await probe(bench.page)).ws.types.length;
      await fillOutbox(server, appDevice, from, n);
      const newest = devices.get(appDevice)!.cursor;
      // Everything received live is stored (with its cursor) before the reload.
      await waitFor(
        bench.page,
        (want) => window.__bench.idb.syncCommits.some(([, cursor]) => cursor >= want),
        newest,
        ctx.timeoutMs,
        `the app did not store cursor ${newest} live`,
      );
      const types = (await probe(bench.page)).ws.types.slice(before);
      sample.live = types.filter((t) => t !== 'message.update' && t !== 'tool.progress' && t !== 'pong').length;
      const resumed = await reload(ctx, bench);
      sample.replayed = resumed.replayed;
      sample.synced = resumed.synced;
      sample.sinceSync = resumed.sinceSync;
    });
    await ctx.measure(sample, ['replayedEmpty', 'syncedEmpty', 'sinceSyncEmpty'], async () => {
      const empty = await reload(ctx, bench);
      sample.replayedEmpty = empty.replayed;
      sample.syncedEmpty = empty.synced;
      sample.sinceSyncEmpty = empty.sinceSync;
    });
  } finally {
    await context.close();
    await server.close();
  }
}

export async function resume(ctx: ScenarioContext): Promise<Sample[]> {
  const n = ctx.quick ? 200 : 2000;
  return ctx.repeat(async () => {
    const sample: Sample = {};
    await oneRun(ctx, n, sample);
    return sample;
  });
}
