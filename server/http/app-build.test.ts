import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, isBuilt } from './app-build';
import { BUILD_STAMP } from './build-stamp';

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
    expect(isBuilt(join(root, 'dist'))).toBe(false);
    await buildApp(root);
    expect(isBuilt(join(root, 'dist'))).toBe(true);
  });

  it('a build cut short (its index.html written, its last step not) is not taken for a built app', () => {
    const root = mkdtempSync(join(tmpdir(), 'iris-build-'));
    roots.push(root);
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html>');
    expect(isBuilt(join(root, 'dist'))).toBe(false);
    writeFileSync(join(root, 'dist', BUILD_STAMP), '{}');
    expect(isBuilt(join(root, 'dist'))).toBe(true);
  });

  it('fails with the exit code when vite fails', async () => {
    const root = projectWithVite('process.exit(3);');
    await expect(buildApp(root)).rejects.toThrow('building the app failed (vite build exited with code 3)');
  });
});
