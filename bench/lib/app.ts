// Driving the app like a person would: open its pairing link, wait until it is connected and synced,
// open a lane. Waits are generous and end in NotMeasured, never in a harness failure.
import type { Page } from '@playwright/test';
import { NotMeasured } from './figures';
import type { BenchServer } from './server';

export function laneHash(lane: string): string {
  return `#/c/${encodeURIComponent(lane)}`;
}

/** Pairs through the link the server prints (the token stays in the fragment, never sent to a server). */
export async function pairApp(page: Page, server: BenchServer, timeoutMs: number): Promise<void> {
  await page.goto(
    `${server.url}/#/pair?url=${encodeURIComponent(server.wsUrl)}&token=${encodeURIComponent(server.token)}`,
  );
  await waitFor(
    page,
    () => window.__bench.ws.types.includes('sync.done'),
    0,
    timeoutMs,
    'the app did not finish its first sync',
  );
}

/** Opens the lane and waits for its message log. */
export async function openLane(page: Page, server: BenchServer, lane: string, timeoutMs: number): Promise<void> {
  await page.goto(`${server.url}/${laneHash(lane)}`);
  try {
    await page.getByRole('log', { name: 'Messages' }).waitFor({ state: 'visible', timeout: timeoutMs });
  } catch {
    throw new NotMeasured('the lane page did not show its Messages log');
  }
}

/** Waits (polling) until `condition(arg)` holds in the page; NotMeasured(failure) after timeoutMs. */
export async function waitFor(
  page: Page,
  condition: (arg: number) => boolean,
  arg: number,
  timeoutMs: number,
  failure: string,
): Promise<void> {
  try {
    await page.waitForFunction(condition, arg, { timeout: timeoutMs, polling: 50 });
  } catch (error) {
    if (error instanceof Error && /Timeout/i.test(error.name + error.message)) throw new NotMeasured(failure);
    throw error;
  }
}

/** Resolves once `read()` has not changed for `quietMs` (the app settled after a burst of work). */
export async function settle(read: () => Promise<unknown>, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = JSON.stringify(await read());
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = JSON.stringify(await read());
    if (now !== last) {
      last = now;
      since = Date.now();
    }
  }
}
