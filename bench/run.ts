// `npm run bench [-- --quick] [-- --only=cold-start,streaming] [-- --runs=N] [-- --build]`
// Measures the built app in headless Chromium against the reference gateway, each scenario next to
// its bare page (the browser's own limit), prints a Markdown table and writes bench/results.json.
// Exit code 1 when the harness itself broke, and in --quick when a figure could not be measured; in a
// full run, slow or unmeasurable figures print "n/a (reason)".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './lib/browser';
import { markdownTable, summarize, type Figure, type FigureDef, type Sample } from './lib/figures';
import { BENCH_DIR, prepareSite } from './lib/pages';
import { scenarioContext, type ScenarioContext } from './lib/scenario';
import { bundle, bundleDefs } from './scenarios/bundle';
import { coldStart, coldStartDefs } from './scenarios/coldStart';
import { streaming, streamingDefs } from './scenarios/streaming';
import { syncCatchUp, syncDefs } from './scenarios/syncCatchUp';
import { bigLaneSizes, longLane, longLaneDefs } from './scenarios/longLane';
import { search, searchDefs } from './scenarios/search';
import { media, mediaDefs } from './scenarios/media';
import { resume, resumeDefs } from './scenarios/resume';
import { lighthouseDefs, lighthouseScenario } from './scenarios/lighthouse';
import { paste, pasteDefs, pasteSizes } from './scenarios/paste';
import { bigAnswer, bigAnswerDefs, bigAnswerSizes } from './scenarios/bigAnswer';

interface Scenario {
  id: string;
  title: string;
  defs(quick: boolean): FigureDef[];
  run(ctx: ScenarioContext): Promise<Sample[]>;
}

const SCENARIOS: Scenario[] = [
  { id: 'bundle', title: 'Bundle', defs: () => bundleDefs, run: bundle },
  { id: 'cold-start', title: 'Cold start', defs: (q) => coldStartDefs(q ? 500 : 5000), run: coldStart },
  { id: 'streaming', title: 'Streaming', defs: (q) => streamingDefs(q ? 1000 : 5000), run: streaming },
  { id: 'sync', title: 'Sync catch-up', defs: (q) => syncDefs(q ? 1000 : 10_000), run: syncCatchUp },
  { id: 'long-lane', title: 'Long lane', defs: (q) => longLaneDefs(q ? 500 : 10_000, bigLaneSizes(q)), run: longLane },
  { id: 'search', title: 'Local search', defs: (q) => searchDefs(q ? 10_000 : 100_000), run: search },
  { id: 'media', title: 'Media', defs: (q) => mediaDefs(q ? 2 : 20), run: media },
  { id: 'resume', title: 'Resume', defs: (q) => resumeDefs(q ? 200 : 2000), run: resume },
  { id: 'lighthouse', title: 'Lighthouse', defs: lighthouseDefs, run: lighthouseScenario },
  { id: 'paste', title: 'Paste', defs: (q) => pasteDefs(pasteSizes(q)), run: paste },
  { id: 'big-answer', title: 'Big answer', defs: (q) => bigAnswerDefs(bigAnswerSizes(q)), run: bigAnswer },
];

interface Options {
  quick: boolean;
  runs: number;
  only?: Set<string>;
  build: boolean;
}

/** A wrong command line: reported in one line, not as the harness failing. */
class UsageError extends Error {}

function parseArgs(argv: string[]): Options {
  const options: Options = { quick: false, runs: 0, build: false };
  for (const arg of argv) {
    if (arg === '--quick') options.quick = true;
    else if (arg === '--build') options.build = true;
    else if (arg.startsWith('--runs=')) options.runs = Number.parseInt(arg.slice(7), 10);
    else if (arg.startsWith('--only=')) options.only = new Set(arg.slice(7).split(','));
    else throw new UsageError(`unknown argument ${arg} (use --quick, --runs=N, --only=id,id, --build)`);
  }
  if (!(options.runs >= 1)) options.runs = options.quick ? 1 : 3;
  for (const id of options.only ?? []) {
    if (!SCENARIOS.some((s) => s.id === id))
      throw new UsageError(`unknown scenario ${id}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  }
  return options;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = Date.now();
  const site = await prepareSite(log, options.build);
  const browser = await launchBrowser();
  const figures: Figure[] = [];
  const broken: { scenario: string; error: string }[] = [];
  try {
    for (const scenario of SCENARIOS) {
      if (options.only && !options.only.has(scenario.id)) continue;
      log(`bench: ${scenario.title}${options.quick ? ' (quick)' : ''}`);
      const ctx = scenarioContext({
        browser,
        site,
        quick: options.quick,
        runs: options.runs,
        timeoutMs: options.quick ? 60_000 : 180_000,
        log,
      });
      const defs = scenario.defs(options.quick);
      try {
        figures.push(...summarize(scenario.title, defs, await scenario.run(ctx)));
      } catch (error) {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`bench: HARNESS ERROR in ${scenario.title}: ${message}`);
        broken.push({ scenario: scenario.id, error: message.split('\n')[0]! });
        figures.push(
          ...summarize(scenario.title, defs, [
            Object.fromEntries(defs.map((d) => [d.key, { missing: 'harness error' }])),
          ]),
        );
      }
    }
  } finally {
    await browser.close();
    site.remove();
  }
  const table = markdownTable(figures);
  process.stdout.write(`${table}\n`);
  const results = {
    date: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    runs: options.runs,
    seconds: Math.round((Date.now() - started) / 1000),
    figures,
    broken,
    table,
  };
  writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(
    `bench: done in ${results.seconds} s; wrote bench/results.json${broken.length ? `; HARNESS BROKEN in ${broken.map((b) => b.scenario).join(', ')}` : ''}`,
  );
  // The quick run is the check that the harness still measures the app: at its small sizes and long
  // waits a figure it cannot take means the app and the harness disagree (a renamed button left the
  // media scenario printing n/a for several stops), so there it fails the run.
  const unmeasured = options.quick ? figures.filter((f) => f.value === null) : [];
  for (const f of unmeasured) log(`bench: NOT MEASURED in the quick run: ${f.scenario}, ${f.figure}: ${f.reason}`);
  return broken.length || unmeasured.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`bench: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `bench: HARNESS ERROR: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
