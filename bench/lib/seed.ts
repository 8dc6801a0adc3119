// Seeding a fresh browser context's copy of the app's database through the bench seed page
// (pages/seed.ts) on the app's origin. Not measured.
import type { Browser, BrowserContext } from '@playwright/test';
import { newContext } from './browser';
import { LANE } from './drive';
import { deadGatewayUrl, type BenchServer } from './server';
import type { SeedApi } from '../pages/seed';

/**
 * A new context whose database holds one paired lane of `count` messages (the newest and oldest
 * carrying the markers; `bigAnswers` of them whole files), paired with a gateway address where nothing
 * listens (the gateway stopped).
 */
export async function contextWithLane(
  browser: Browser,
  server: BenchServer,
  count: number,
  markers: { newest: string; oldest: string },
  seed = 7,
  bigAnswers = 0,
): Promise<BrowserContext> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/bench/pages/seed.html`);
  await page.waitForFunction(() => 'bench' in window);
  await page.evaluate((args) => (window as unknown as { bench: SeedApi }).bench.seedLane(args), {
    lane: LANE,
    count,
    newestMarker: markers.newest,
    oldestMarker: markers.oldest,
    gatewayUrl: await deadGatewayUrl(),
    token: 'bench-token-of-a-stopped-gateway',
    seed,
    bigAnswers,
  });
  await page.close();
  return context;
}

/** Adds `count` synthetic messages (the search corpus) to the context's database. */
export async function seedSearchCorpus(context: BrowserContext, server: BenchServer, count: number): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${server.url}/bench/pages/seed.html`);
  await page.waitForFunction(() => 'bench' in window);
  await page.evaluate((n) => (window as unknown as { bench: SeedApi }).bench.seedSearch(n), count);
  await page.close();
}
