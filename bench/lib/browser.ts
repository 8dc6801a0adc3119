// Headless Chromium for the benchmarks: the same executable and flags as the e2e tests, a fresh
// context (own storage, service workers blocked) per measured page, the instrumentation injected
// before any page script, and the DevTools calls the figures need.
import { chromium, errors, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../e2e/browser';
import type { BenchProbe, InstrumentOptions } from '../inpage/benchApi';
import { NotMeasured } from './figures';

export type { Page } from '@playwright/test';

const VIEWPORT = { width: 1024, height: 768 };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
}

/**
 * A fresh browser context. Service workers are blocked so no precache download or SW-served
 * navigation runs while something is measured (the bundle scenario reports the precache statically).
 */
export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ serviceWorkers: 'block', viewport: VIEWPORT });
}

export interface BenchPage {
  page: Page;
  cdp: CDPSession;
  /** Uncaught errors of the page, for debugging a run. */
  errors: string[];
}

/** A page with the instrumentation injected; CPU throttling (DevTools) applies before navigation. */
export async function newBenchPage(
  context: BrowserContext,
  instrument: string,
  options: InstrumentOptions = {},
  cpuThrottle = 1,
): Promise<BenchPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript({ content: `window.__benchOptions = ${JSON.stringify(options)};\n${instrument}` });
  const cdp = await context.newCDPSession(page);
  if (cpuThrottle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
  return { page, cdp, errors };
}

/** The page's JS heap after a full garbage collection (MiB). */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = await cdp.send('Runtime.getHeapUsage');
  return usage.usedSize / (1024 * 1024);
}

export function probe(page: Page): Promise<BenchProbe> {
  // Functions do not cross; only the recorded data does.
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__bench)) as BenchProbe);
}

/** Waits until `needle` was painted on the page; NotMeasured after `timeoutMs`. */
export async function waitPainted(page: Page, needle: string, timeoutMs: number, what: string): Promise<number> {
  try {
    return await page.evaluate(
      ([text, ms]) =>
        Promise.race([
          window.__bench.waitPainted(text),
          new Promise<number>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms)),
        ]),
      [needle, timeoutMs] as const,
    );
  } catch (error) {
    if (error instanceof Error && /timeout/.test(error.message))
      throw new NotMeasured(`${what} not painted within ${Math.round(timeoutMs / 1000)} s`);
    throw error;
  }
}

/** Playwright's own timeouts are slowness, not a broken harness. */
export function isTimeout(error: unknown): boolean {
  return error instanceof errors.TimeoutError;
}

/** Long tasks that started within [from, to]: count and total duration (ms). */
export function longTasksBetween(
  probeData: BenchProbe,
  from: number,
  to: number,
): { count: number; total: number; longest: number } | null {
  if (!probeData.longTasks) return null;
  const within = probeData.longTasks.filter(([start]) => start >= from && start <= to);
  return {
    count: within.length,
    total: within.reduce((sum, [, duration]) => sum + duration, 0),
    longest: Math.max(0, ...within.map(([, duration]) => duration)),
  };
}
