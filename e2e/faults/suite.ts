// Runs fault runs and tabulates them; shared by the CLI (run.ts) and the Playwright spec.
import type { Browser } from '@playwright/test';
import { addVerdict, emptyVerdict, isClean, type Verdict } from './checks';
import { Run } from './harness';
import { runSeed } from './rng';
import { SCENARIOS, type Scenario } from './scenarios';

export interface RunResult {
  scenario: string;
  seed: number;
  verdict: Verdict;
  error?: string;
  events: string[];
  ms: number;
}

export interface RunOneOptions {
  browser: Browser;
  distDir: string;
  settleMs?: number;
  verbose?: boolean;
}

export async function runOne(scenario: Scenario, seed: number, opts: RunOneOptions): Promise<RunResult> {
  const started = Date.now();
  const run = await Run.open({ ...opts, seed, scenario: scenario.name, streamDelayMs: scenario.streamDelayMs });
  let error: string | undefined;
  let verdict = emptyVerdict();
  try {
    try {
      await scenario.run(run);
    } catch (e) {
      error = e instanceof Error ? e.message.split('\n')[0] : String(e);
      run.note(`scenario failed: ${error}`);
    }
    await run.heal();
    // A device whose every tab was closed opens one again to be judged (and to catch up).
    for (const d of run.devices) if (d.pages.length === 0) await run.openTab(d);
    verdict = await run.settle();
  } catch (e) {
    error ??= e instanceof Error ? e.message.split('\n')[0] : String(e);
  } finally {
    await run.close().catch(() => undefined);
  }
  return {
    scenario: scenario.name,
    seed,
    verdict,
    ...(error !== undefined && { error }),
    events: run.events,
    ms: Date.now() - started,
  };
}

/** The plan: `runs` runs spread evenly over the scenarios, each with a seed derived from `seed`. */
export function plan(runs: number, seed: number, only?: string[]): { scenario: Scenario; seed: number }[] {
  const chosen = only?.length ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  if (chosen.length === 0)
    throw new Error(`no such scenario: ${only?.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return Array.from({ length: runs }, (_, i) => ({ scenario: chosen[i % chosen.length]!, seed: runSeed(seed, i) }));
}

export function failed(r: RunResult): boolean {
  return r.error !== undefined || !isClean(r.verdict);
}

export function table(results: RunResult[], notRun: { scenario: string; why: string }[] = []): string {
  const rows: string[][] = [
    ['scenario', 'runs', 'lost', 'duplicated', 'stuck', 'out of order', 'cursor back', 'errors'],
  ];
  const names = [...new Set([...SCENARIOS.map((s) => s.name)])];
  const total = emptyVerdict();
  let totalRuns = 0;
  let totalErrors = 0;
  for (const name of names) {
    const mine = results.filter((r) => r.scenario === name);
    const skipped = notRun.find((n) => n.scenario === name);
    if (mine.length === 0) {
      if (skipped) rows.push([name, `not run: ${skipped.why}`, '', '', '', '', '', '']);
      continue;
    }
    const sum = emptyVerdict();
    for (const r of mine) addVerdict(sum, r.verdict);
    const errors = mine.filter((r) => r.error !== undefined).length;
    addVerdict(total, sum);
    totalRuns += mine.length;
    totalErrors += errors;
    rows.push([
      name,
      String(mine.length),
      String(sum.lost),
      String(sum.duplicated),
      String(sum.stuck),
      String(sum.outOfOrder),
      String(sum.cursorBack),
      String(errors),
    ]);
  }
  rows.push([
    'total',
    String(totalRuns),
    String(total.lost),
    String(total.duplicated),
    String(total.stuck),
    String(total.outOfOrder),
    String(total.cursorBack),
    String(totalErrors),
  ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  return [
    line(rows[0]!),
    `|${widths.map((w, c) => (c === 0 ? ':' : '') + '-'.repeat(w + 1) + (c === 0 ? '' : ':')).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}
