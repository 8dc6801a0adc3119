// The app's code is built for es2022, which Safari 16.0–16.3 runs but for one thing: a regular
// expression with a lookbehind, `(?<=…)` or `(?<!…)`, is a syntax error there, and a module holding one
// fails to load whole (the first file would leave a blank page). This keeps a new one from slipping in.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LOOKBEHIND = /\(\?<[=!]/;

describe('regular expressions in the app', () => {
  it('use no lookbehind in src/ and worker/ (tests aside), so older Safari can parse every module', () => {
    const files = execFileSync('git', ['ls-files', 'src', 'worker'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (LOOKBEHIND.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
