// What every scenario gets from the runner, and the two rules of a run: each scenario repeats
// `runs` times, and a measurement that cannot be made becomes a missing value (with its reason)
// instead of failing the run. Any other error means the harness itself is broken.
import type { Browser } from '@playwright/test';
import { isTimeout } from './browser';
import { missing, NotMeasured, WHOLE_RUN, type Sample } from './figures';
import type { Site } from './pages';

export interface ScenarioContext {
  browser: Browser;
  site: Site;
  quick: boolean;
  runs: number;
  /** How long to wait for anything the app or a bare page should do (generous: never a timing failure). */
  timeoutMs: number;
  log(line: string): void;
  /** Runs `fn` once per run (0-based), returning each run's sample. */
  repeat(fn: (run: number) => Promise<Sample>): Promise<Sample[]>;
  /** Runs one measurement; if it cannot be made, `keys` not yet set in `sample` get the reason. */
  measure(sample: Sample, keys: string[], fn: () => Promise<void>): Promise<void>;
}

function notMeasuredReason(error: unknown): string | undefined {
  if (error instanceof NotMeasured) return error.message;
  if (isTimeout(error)) return `timed out: ${(error as Error).message.split('\n')[0]}`;
  // The gateway test client's waits (server/gateway/testclient.ts).
  if (error instanceof Error && error.message.startsWith('timed out waiting for')) return error.message.split(';')[0];
  return undefined;
}

/** Rejects with NotMeasured when `work` has not settled after `ms` (a hung page call must not hang the run). */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotMeasured(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function scenarioContext(base: Omit<ScenarioContext, 'repeat' | 'measure'>): ScenarioContext {
  return {
    ...base,
    async repeat(fn) {
      const samples: Sample[] = [];
      for (let run = 0; run < base.runs; run++) {
        const started = Date.now();
        try {
          samples.push(await withDeadline(fn(run), base.timeoutMs * 4, `run ${run + 1}`));
        } catch (error) {
          const reason = notMeasuredReason(error);
          if (reason === undefined) throw error;
          base.log(`  run ${run + 1} not measured: ${reason}`);
          samples.push({ [WHOLE_RUN]: missing(reason) });
        }
        base.log(`  run ${run + 1}/${base.runs} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      return samples;
    },
    async measure(sample, keys, fn) {
      try {
        await withDeadline(fn(), base.timeoutMs * 2, keys.join(', '));
      } catch (error) {
        const reason = notMeasuredReason(error);
        if (reason === undefined) throw error;
        base.log(`  not measured (${keys.join(', ')}): ${reason}`);
        for (const key of keys) if (!(key in sample)) sample[key] = missing(reason);
      }
    },
  };
}
