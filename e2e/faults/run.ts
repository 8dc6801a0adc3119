// `npm run test:faults -- --runs N --seed S [--scenario NAME[,NAME]] [--workers K] [--verbose]` (--help: all flags)
// Drives the built app (dist/) in Chromium against the reference gateway through the fault proxy,
// prints a table (scenario, runs, lost, duplicated, stuck, …) and exits 1 on any loss, duplicate,
// stuck state, reordering, backwards cursor or failed run.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '../browser';
import { failed, plan, runOne, table, type RunResult } from './suite';

const USAGE =
  'usage: npm run test:faults -- --runs N --seed S [--scenario NAME[,NAME]] [--run-seed S] [--workers K] [--settle-ms MS] [--dist DIR] [--verbose]';

/** A wrong command line gets one line saying what is wrong, not a stack trace (as the server's own CLI). */
function refuse(why: string): never {
  console.error(`iris faults: ${why} (see --help)`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    options: {
      runs: { type: 'string', default: '14' },
      seed: { type: 'string', default: String(Date.now() % 1_000_000) },
      scenario: { type: 'string' },
      'run-seed': { type: 'string' },
      workers: { type: 'string', default: '1' },
      'settle-ms': { type: 'string', default: '45000' },
      dist: { type: 'string', default: 'dist' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
} catch (error) {
  refuse(error instanceof Error ? error.message : String(error));
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const runs = Number(values.runs);
const seed = Number(values.seed);
const workers = Math.max(1, Number(values.workers));
const wholes = [seed, workers, Number(values['settle-ms']), Number(values['run-seed'] ?? 0)];
if (!Number.isInteger(runs) || runs < 1 || !wholes.every(Number.isInteger))
  refuse('--runs needs a whole number from 1; --seed, --run-seed, --workers and --settle-ms whole numbers');

// --run-seed repeats one run exactly as a failing run printed it (with --scenario).
let todo: ReturnType<typeof plan>;
try {
  todo =
    values['run-seed'] !== undefined
      ? plan(1, 0, values.scenario?.split(',')).map((p) => ({ ...p, seed: Number(values['run-seed']) }))
      : plan(runs, seed, values.scenario?.split(','));
} catch (error) {
  refuse(error instanceof Error ? error.message : String(error));
}
const dist = resolve(values.dist!);
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`iris faults: no built app in ${dist}; run \`npm run build\` first`);
  process.exit(2);
}
// A private copy: another build of dist/ during a long run must not change the app under test.
const distCopy = mkdtempSync(join(tmpdir(), 'iris-faults-dist-'));
cpSync(dist, distCopy, { recursive: true });
console.log(`iris faults: ${todo.length} runs, seed ${seed}, ${workers} worker(s)`);
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
const results: RunResult[] = [];
let next = 0;
async function worker(): Promise<void> {
  while (next < todo.length) {
    const i = next++;
    const { scenario, seed: runSeedValue } = todo[i]!;
    const result = await runOne(scenario, runSeedValue, {
      browser,
      distDir: distCopy,
      settleMs: Number(values['settle-ms']),
      verbose: values.verbose,
    });
    results.push(result);
    const v = result.verdict;
    const status = failed(result) ? 'FAIL' : 'ok';
    console.log(
      `${String(results.length).padStart(4)}/${todo.length} ${status.padEnd(4)} ${scenario.name} seed=${runSeedValue} ` +
        `${(result.ms / 1000).toFixed(1)}s lost=${v.lost} dup=${v.duplicated} stuck=${v.stuck}` +
        (result.error ? ` error: ${result.error}` : ''),
    );
    if (failed(result)) {
      for (const p of v.problems.slice(0, 12)) console.log(`       - ${p}`);
      for (const e of result.events.slice(-25)) console.log(`       · ${e}`);
    }
  }
}
try {
  await Promise.all(Array.from({ length: workers }, () => worker()));
} finally {
  await browser.close();
  rmSync(distCopy, { recursive: true, force: true });
}

console.log('\n' + table(results));
// What was actually injected (from the runs' event logs), so a clean table is not an idle one.
const events = results.flatMap((r) => r.events);
const count = (re: RegExp) => events.filter((e) => re.test(e)).length;
console.log(
  `\nfaults injected: ${count(/cut (\w+ )?inside a frame/)} cuts inside a frame, ` +
    `${count(/cut (\w+ )?between frames|cut \d+ link/)} other cuts, ${count(/link down/)} link outages, ${count(/gateway killed/)} gateway kills ` +
    `(${count(/killing mid-stream/)} mid-stream), ${count(/^[\d.]+s reload/)} reloads, ${count(/closing the leader tab mid-stream/)} leader tabs closed mid-stream, ` +
    `${count(/latency [1-9]/)} latency changes, ${count(/tab killed right after storing/)} tabs killed right after storing a frame, ` +
    `${count(/disk full for/)} disk-full windows (${count(/[1-9]\d* of them with a cursor/)} refusing a write with a cursor), ` +
    `${count(/[1-9]\d* sync\(s\) on the first socket after its own/)} runs resynced on their socket`,
);
const bad = results.filter(failed);
if (bad.length > 0) {
  console.log(`\n${bad.length} run(s) failed; repeat one with the command shown:`);
  for (const r of bad) console.log(`  npm run test:faults -- --scenario ${r.scenario} --run-seed ${r.seed}`);
}
process.exit(bad.length > 0 ? 1 : 0);
