// Scenario 8, Lighthouse: the app as a phone on a mobile network loads it (Lighthouse 12.2.3, its
// default mobile settings: simulated slow 4G, 4x CPU slowdown, a phone's screen), performance only.
// Two pages: the pairing screen in a fresh browser, and a lane of a seeded conversation in a browser
// that a pairing link paired (storage kept; the HTTP cache and the service worker removed first, so
// the lane's code comes over the network as on a phone that has not cached it). Each run gets a
// fresh Chromium; `--quick` measures the pairing page once.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import type { Config, Flags } from 'lighthouse';
import { fillOutbox, LANE, registerOfflineDevice } from '../lib/drive';
import { NotMeasured, type FigureDef, type Sample } from '../lib/figures';
import { launchLighthouseChromium, withoutOutsideConnections } from '../lib/lighthouseChromium';
import { laneHash } from '../lib/app';
import { startBenchServer, type BenchServer } from '../lib/server';
import type { ScenarioContext } from '../lib/scenario';

const TARGET_SCORE = 98;
const FIRST_PAGE_KIB = 90;
const FIRST_PAGE_UNUSED_JS_KIB = 20;

type PageId = 'pair' | 'lane';

function pageDefs(id: PageId, label: string): FigureDef[] {
  const first = id === 'pair';
  return [
    {
      key: `${id}Score`,
      figure: `${label}: performance score`,
      unit: 'score',
      reference: { value: TARGET_SCORE, label: `the ${TARGET_SCORE} target` },
    },
    { key: `${id}Fcp`, figure: `${label}: first contentful paint`, unit: 'ms' },
    { key: `${id}Lcp`, figure: `${label}: largest contentful paint`, unit: 'ms' },
    { key: `${id}Tbt`, figure: `${label}: total blocking time`, unit: 'ms' },
    { key: `${id}Cls`, figure: `${label}: cumulative layout shift (target 0)`, unit: 'CLS' },
    {
      key: `${id}Bytes`,
      figure: `${label}: bytes transferred`,
      unit: 'KiB',
      ...(first ? { reference: { value: FIRST_PAGE_KIB, label: `the ${FIRST_PAGE_KIB} KiB target` } } : {}),
    },
    {
      key: `${id}UnusedJs`,
      figure: `${label}: unused JS (transferred)`,
      unit: 'KiB',
      ...(first
        ? { reference: { value: FIRST_PAGE_UNUSED_JS_KIB, label: `the ${FIRST_PAGE_UNUSED_JS_KIB} KiB target` } }
        : {}),
    },
    { key: `${id}Outside`, figure: `${label}: requests outside the test server`, unit: 'count' },
    // Lighthouse's own CPU benchmark of the machine during the run: its 4x slowdown is calibrated for a
    // fast desktop (roughly 1000 and up); far below that, every main-thread figure is inflated.
    { key: `${id}Benchmark`, figure: `${label}: Lighthouse's CPU benchmark index of this machine`, unit: 'count' },
  ];
}

export const lighthouseDefs = (quick: boolean): FigureDef[] => [
  ...pageDefs('pair', 'pairing page'),
  ...(quick ? [] : pageDefs('lane', 'lane opened by a pairing link')),
];

/**
 * Lighthouse's defaults (mobile, simulated throttling), performance only; the unused-JS audit counts
 * every script (its default hides scripts with less than 20 KiB unused, which would hide the figure).
 */
const CONFIG: Config = {
  extends: 'lighthouse:default',
  settings: { onlyCategories: ['performance'] },
  audits: [{ path: 'byte-efficiency/unused-javascript', options: { unusedThreshold: 0 } }],
};

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

async function runLighthouse(port: number, url: string, flags: Flags): Promise<Lhr> {
  const { result, refused } = await withoutOutsideConnections(() =>
    // Error reporting (Sentry) stays off: the Node API turns it on only when asked to.
    lighthouse(url, { port, output: 'json', logLevel: 'error', ...flags }, CONFIG),
  );
  if (refused.length > 0) throw new Error(`Lighthouse tried to reach outside this machine: ${refused.join(', ')}`);
  if (!result) throw new Error('Lighthouse returned no result');
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new NotMeasured(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

function numeric(lhr: Lhr, audit: string): number {
  const value = lhr.audits[audit]?.numericValue;
  if (typeof value !== 'number')
    throw new NotMeasured(`Lighthouse's ${audit} audit has no value (${lhr.audits[audit]?.errorMessage ?? 'not run'})`);
  return value;
}

function record(sample: Sample, id: PageId, lhr: Lhr, origin: string): void {
  const score = lhr.categories.performance?.score;
  if (typeof score !== 'number') throw new NotMeasured('Lighthouse gave no performance score');
  sample[`${id}Score`] = score * 100;
  sample[`${id}Fcp`] = numeric(lhr, 'first-contentful-paint');
  sample[`${id}Lcp`] = numeric(lhr, 'largest-contentful-paint');
  sample[`${id}Tbt`] = numeric(lhr, 'total-blocking-time');
  sample[`${id}Cls`] = numeric(lhr, 'cumulative-layout-shift');
  sample[`${id}Bytes`] = numeric(lhr, 'total-byte-weight') / 1024;
  const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
  sample[`${id}UnusedJs`] = (unused?.overallSavingsBytes ?? 0) / 1024;
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string }[] } | undefined)?.items ?? [];
  sample[`${id}Benchmark`] = lhr.environment.benchmarkIndex;
  sample[`${id}Outside`] = requests.filter(
    (r) => !/^(data|blob):/.test(r.url) && new URL(r.url).host !== new URL(origin).host,
  ).length;
}

/** A conversation in the lane: another device asks, the demo agent answers (markdown, code, a tool card). */
async function seedConversation(server: BenchServer): Promise<void> {
  await registerOfflineDevice(server, 'bench-lighthouse-shadow');
  await fillOutbox(server, 'bench-lighthouse-shadow', 0, 40);
}

/** Pairs the Chromium's profile through the pairing link, opens the lane once, then empties its HTTP cache and service worker. */
async function pairProfile(port: number, server: BenchServer, timeoutMs: number): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(
      `${server.url}/#/pair?url=${encodeURIComponent(server.wsUrl)}&token=${encodeURIComponent(server.token)}`,
    );
    try {
      // Paired, the app opens the lane it lands in (the "Connected" line before it can be gone by then).
      await page.waitForURL(/#\/c\//, { timeout: timeoutMs });
      await page.goto(`${server.url}/${laneHash(LANE)}`);
      await page
        .getByRole('log', { name: 'Messages' })
        .getByText('Catch-up message 1:')
        .first()
        .waitFor({ timeout: timeoutMs });
    } catch {
      throw new NotMeasured('the pairing link did not pair the browser and show the seeded lane');
    }
    await page.evaluate(async () => {
      for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
      for (const key of await caches.keys()) await caches.delete(key);
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close(); // disconnects; the Chromium stays for Lighthouse
  }
}

/** With LIGHTHOUSE_REPORTS=<dir>, each run's full Lighthouse result is kept there, to see what a figure is made of. */
function keepReport(id: PageId, lhr: Lhr): Lhr {
  const dir = process.env.LIGHTHOUSE_REPORTS;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(lhr));
  }
  return lhr;
}

async function measurePage(ctx: ScenarioContext, server: BenchServer, id: PageId, sample: Sample): Promise<void> {
  const keys = pageDefs(id, '').map((d) => d.key);
  await ctx.measure(sample, keys, async () => {
    const chrome = await launchLighthouseChromium();
    try {
      if (id === 'pair') {
        record(sample, id, keepReport(id, await runLighthouse(chrome.port, `${server.url}/#/pair`, {})), server.url);
      } else {
        await pairProfile(chrome.port, server, ctx.timeoutMs);
        record(
          sample,
          id,
          keepReport(
            id,
            await runLighthouse(chrome.port, `${server.url}/${laneHash(LANE)}`, { disableStorageReset: true }),
          ),
          server.url,
        );
      }
    } finally {
      await chrome.close();
    }
  });
}

export async function lighthouseScenario(ctx: ScenarioContext): Promise<Sample[]> {
  const server = await startBenchServer(ctx.site.dir, true);
  try {
    if (!ctx.quick) await seedConversation(server);
    return await ctx.repeat(async () => {
      const sample: Sample = {};
      await measurePage(ctx, server, 'pair', sample);
      if (!ctx.quick) await measurePage(ctx, server, 'lane', sample);
      return sample;
    });
  } finally {
    await server.close();
  }
}
