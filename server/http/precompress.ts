// Build step: a brotli (.br) and a gzip (.gz) copy beside every text file of the build, made once
// with the slowest, smallest settings, so the serving process sends them without compressing per
// request. Node's own zlib does it; the Vite plugin at the end runs it after the service worker is
// written (so sw.js gets its copies too, and the precache manifest never lists them).
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { isCompressible, SUFFIX } from './encoding.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface PrecompressResult {
  /** Files (relative to the folder) that got copies. */
  compressed: string[];
  /** Text files left alone because compressing did not make them smaller. */
  skipped: string[];
}

async function* filesUnder(dir: string, prefix = ''): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(join(dir, entry.name), relative);
    else if (entry.isFile()) yield relative;
  }
}

/** Writes `<file>.br` and `<file>.gz` beside each text file under `dir` (when smaller than the file). */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { compressed: [], skipped: [] };
  for await (const relative of filesUnder(dir)) {
    if (!isCompressible(relative)) continue;
    const path = join(dir, relative);
    const bytes = await readFile(path);
    const [br, gz] = await Promise.all([
      brotli(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gzipAsync(bytes, { level: zlibConstants.Z_BEST_COMPRESSION }),
    ]);
    if (br.length >= bytes.length && gz.length >= bytes.length) {
      result.skipped.push(relative);
      continue;
    }
    // The server trusts a copy only if it is not older than its file: give copies the file's time.
    const { atime, mtime } = await stat(path);
    for (const [coding, data] of [
      ['br', br],
      ['gzip', gz],
    ] as const) {
      if (data.length >= bytes.length) continue;
      const copy = path + SUFFIX[coding];
      await writeFile(copy, data);
      await utimes(copy, atime, mtime);
    }
    result.compressed.push(relative);
  }
  return result;
}

/** The Vite plugin: precompresses the build's output folder once everything (the service worker too) is written. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'iris:precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const { compressed } = await precompressDir(outDir);
        this.info?.(`precompressed ${compressed.length} text files (brotli and gzip)`);
      },
    },
  };
}
