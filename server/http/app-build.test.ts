import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app-build';
import { BUILD_STAMP, buildStamp, buildState } from './build-stamp';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project whose `vite` is a stand-in script, so the test sees exactly how it is run. */
function projectWithVite(script: string): string {
  const root = mkdtempSync(join(tmpdir(), 'iris-build-'));
  roots.push(root);
  mkdirSync(join(root, 'node_modules', 'vite', 'bin'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'vite', 'bin', 'vite.js'), script);
  return root;
}

describe('buildApp', () => {
  it('runs `vite build` in the project root and leaves a built app', async () => {
    const root = projectWithVite(`
      const { mkdirSync, writeFileSync } = require('node:fs');
      if (process.argv[2] !== 'build') process.exit(9);
      mkdirSync('dist', { recursive: true });
      writeFileSync('dist/index.html', '<!doctype html>');
      writeFileSync('dist/${BUILD_STAMP}', '{}');
    `);
    expect(buildState(join(root, 'dist'))).toBe('missing');
    await buildApp(root);
    expect(buildState(join(root, 'dist'))).toBe('built');
  });

  it('fails with the exit code when vite fails', async () => {
    const root = projectWithVite('process.exit(3);');
    await expect(buildApp(root)).rejects.toThrow('building the app failed (vite build exited with code 3)');
  });
});

describe('the build stamp', () => {
  /** A project with a source file, built by the stamp plugin's own hooks (the rest of a build faked). */
  async function builtProject(): Promise<string> {
    const root = mkdtempSync(join(tmpdir(), 'iris-build-'));
    roots.push(root);
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'main.ts'), 'console.log(1);');
    writeFileSync(join(root, 'src', 'main.test.ts'), 'test');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html>');
    const plugin = buildStamp();
    (plugin.configResolved as (c: unknown) => void)({ root, build: { outDir: 'dist' } });
    await (plugin.closeBundle as { handler: () => Promise<void> }).handler();
    return root;
  }

  it('a build cut short (its index.html written, its last step not) is not taken for a built app', async () => {
    const root = await builtProject();
    expect(buildState(join(root, 'dist'), root)).toBe('built');
    rmSync(join(root, 'dist', BUILD_STAMP));
    expect(buildState(join(root, 'dist'), root)).toBe('missing');
  });

  it('a build of other sources (the checkout updated or edited since) is stale; a test file changing is not', async () => {
    const root = await builtProject();
    writeFileSync(join(root, 'src', 'main.test.ts'), 'another test');
    expect(buildState(join(root, 'dist'), root)).toBe('built');
    writeFileSync(join(root, 'src', 'main.ts'), 'console.log(2);');
    expect(buildState(join(root, 'dist'), root)).toBe('stale');
    // Without the project to compare with (a folder named on the command line), any whole build serves.
    expect(buildState(join(root, 'dist'))).toBe('built');
    writeFileSync(join(root, 'src', 'main.ts'), 'console.log(1);');
    writeFileSync(join(root, 'src', 'new.ts'), '');
    expect(buildState(join(root, 'dist'), root)).toBe('stale');
  });
});
