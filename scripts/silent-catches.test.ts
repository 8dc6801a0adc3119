// Issue #15: a promise's error dropped with `.catch(() => undefined)` (or `=> {}`, `=> null`, …) must say why
// that is safe, in a comment on its line or the three above (a chained call spreads over lines); otherwise it handles or reports the error
// (console.warn('iris: …'), as the neighbouring code does). This keeps a new silent drop from slipping in.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const DROP = /\.catch\(\(\w*\) => (?:undefined|\{\s*\}|null|false|''|\[\])\)/;

/** The drops in `code` with no comment on their line or the three lines above: `line: text`. */
function unexplainedDrops(code: string): string[] {
  const lines = code.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (!DROP.test(line)) return;
    if (lines.slice(Math.max(0, i - 3), i + 1).some((l) => l.includes('//') || l.includes('/*'))) return;
    out.push(`${i + 1}: ${line.trim()}`);
  });
  return out;
}

describe('silent catches', () => {
  it('finds a drop without a reason, not one with a reason beside or above it', () => {
    const code = [
      'void a().catch(() => undefined);',
      'void b().catch(() => {}); // a lost mark: the next one rewrites it',
      '// Offline, the local mark is enough.',
      'await c()',
      '  .catch(() => {});',
      'void d().catch((err: unknown) => console.warn("iris: d failed", err));',
    ].join('\n');
    expect(unexplainedDrops(code)).toEqual(['1: void a().catch(() => undefined);']);
  });

  it('every drop in src/ and worker/ (tests aside) says why it is safe', () => {
    const files = execFileSync('git', ['ls-files', 'src', 'worker'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const found = files.flatMap((f) => unexplainedDrops(readFileSync(f, 'utf8')).map((d) => `${f}:${d}`));
    expect(found).toEqual([]);
  });
});
