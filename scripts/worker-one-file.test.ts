// vite-plugin-pwa builds the service worker with `output.inlineDynamicImports: true`; built the same way
// here (a worker with a dynamic import), it must come out as one file and without Rolldown's warning.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, createLogger, type Plugin } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { workerOneFile } from './worker-one-file';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Builds a two-module worker as vite-plugin-pwa does; returns the files written and the warnings logged. */
async function buildWorker(plugins: Plugin[]): Promise<{ files: string[]; warnings: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'iris-sw-'));
  dirs.push(dir);
  writeFileSync(
    join(dir, 'sw.js'),
    "self.addEventListener('push', () => import('./push.js').then((m) => m.show()));\n",
  );
  writeFileSync(join(dir, 'push.js'), "export function show() { return 'shown'; }\n");
  const warnings: string[] = [];
  const logger = createLogger('warn', { allowClearScreen: false });
  logger.warn = (msg) => void warnings.push(msg);
  logger.warnOnce = (msg) => void warnings.push(msg);
  // Rolldown writes its own warnings to stderr, past Vite's logger.
  const stderrWrite = process.stderr.write;
  process.stderr.write = ((chunk: unknown) => (warnings.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    await build({
      root: dir,
      configFile: false,
      publicDir: false,
      customLogger: logger,
      logLevel: 'warn',
      plugins,
      build: {
        outDir: join(dir, 'out'),
        minify: false,
        modulePreload: false,
        rollupOptions: { input: join(dir, 'sw.js'), output: { entryFileNames: 'sw.mjs', inlineDynamicImports: true } },
      },
    });
  } finally {
    process.stderr.write = stderrWrite;
  }
  return { files: readdirSync(join(dir, 'out'), { recursive: true }) as string[], warnings };
}

describe('workerOneFile', () => {
  it('builds the worker as one file, without the inlineDynamicImports warning', async () => {
    const { files, warnings } = await buildWorker([workerOneFile()]);
    expect(files).toEqual(['sw.mjs']);
    expect(warnings.filter((w) => /inlineDynamicImports/.test(w))).toEqual([]);
  });

  it('is needed: without it the same build warns', async () => {
    const { files, warnings } = await buildWorker([]);
    expect(files).toEqual(['sw.mjs']);
    expect(warnings.some((w) => /inlineDynamicImports/.test(w))).toBe(true);
  });
});
