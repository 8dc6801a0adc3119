// The two measuring commands a person runs by hand (`npm run bench`, `npm run test:faults`): a wrong flag
// gets one line saying what is wrong and exit code 2, never a stack trace, and nothing starts.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function run(script: string, args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

// Each spawn loads the runner's modules (the bench's include Lighthouse): slow on a busy 2-core machine.
const SLOW = { timeout: 60_000 };

const lines = (text: string) => text.trim().split('\n');

describe('bench/run.ts', SLOW, () => {
  it.each([
    [['--bogus'], 'bench: unknown argument --bogus (use --quick, --runs=N, --only=id,id, --build)'],
    [['--only=nope'], 'bench: unknown scenario nope; known: bundle,'],
  ])('%j: one line, exit 2', (args, line) => {
    const r = run('bench/run.ts', args);
    expect(r.status).toBe(2);
    expect(lines(r.err)).toHaveLength(1);
    expect(r.err.startsWith(line)).toBe(true);
    expect(r.err).not.toMatch(/HARNESS|\n\s+at /);
    expect(r.out).toBe('');
  });
});

describe('e2e/faults/run.ts', SLOW, () => {
  it.each([
    [['--bogus'], "iris faults: Unknown option '--bogus' (see --help)"],
    [['--runs', 'x'], 'iris faults: --runs needs a whole number from 1;'],
    [['--runs', '2', '--workers', '1.5'], 'iris faults: --runs needs a whole number from 1;'],
    [['--scenario', 'nope', '--runs', '1'], 'iris faults: no such scenario: nope; known: conversation-flapping,'],
  ])('%j: one line, exit 2', (args, line) => {
    const r = run('e2e/faults/run.ts', args);
    expect(r.status).toBe(2);
    expect(lines(r.err)).toHaveLength(1);
    expect(r.err.startsWith(line)).toBe(true);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.out).toBe('');
  });

  it('without a build: one line saying to build first, exit 2', () => {
    const r = run('e2e/faults/run.ts', ['--runs', '1', '--dist', 'no-such-build']);
    expect(r.status).toBe(2);
    expect(r.err).toBe(`iris faults: no built app in ${resolve(ROOT, 'no-such-build')}; run \`npm run build\` first\n`);
  });

  it('--help prints the flags and starts nothing', () => {
    const r = run('e2e/faults/run.ts', ['--help']);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^usage: npm run test:faults -- --runs N .*--scenario NAME.*--verbose\]\n$/);
  });
});
