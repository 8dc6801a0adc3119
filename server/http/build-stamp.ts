// The mark of a whole build: the last thing `vite build` writes (after the service worker and the
// precompressed copies), with a digest of the sources it was built from. `npm start` serves its folder
// only when the mark is there and the sources are still those: a first build cut short (Ctrl-C, a full
// disk) is built again instead of being served without its service worker (so without offline reading
// or notifications, for good), and so is the build of an older checkout after an update.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The mark's file name in the build's folder (JSON, not precached, harmless if fetched). */
export const BUILD_STAMP = 'build-complete.json';

/** What the build is made from, relative to the project root: files, or folders read whole (tests left out). */
const BUILD_INPUTS = [
  'index.html',
  'package-lock.json',
  'vite.config.ts',
  'pwa.manifest.ts',
  'src',
  'worker',
  'public',
  'scripts/blocking-script-last.ts',
  'scripts/preload-route.ts',
  'server/http/build-stamp.ts',
  'server/http/encoding.ts',
  'server/http/precompress.ts',
];

function* inputFiles(root: string, relative: string): Generator<string> {
  const path = join(root, relative);
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield relative;
    return;
  }
  const names = readdirSync(path).sort();
  for (const name of names) {
    if (/\.test\.tsx?$/.test(name)) continue;
    yield* inputFiles(root, `${relative}/${name}`);
  }
}

/** A digest of the build's sources under `root`: their names and their bytes. */
function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS)
    for (const file of inputFiles(root, input)) hash.update(`${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

/**
 * What `distDir` holds: a whole build of the sources under `root` ('built'), a whole build of other
 * sources ('stale'), or no whole build ('missing'). Without `root`, any whole build counts as built.
 */
export function buildState(distDir: string, root?: string): 'built' | 'stale' | 'missing' {
  let stamp: { sources?: unknown };
  try {
    if (!existsSync(join(distDir, 'index.html'))) return 'missing';
    stamp = JSON.parse(readFileSync(join(distDir, BUILD_STAMP), 'utf8')) as { sources?: unknown };
  } catch {
    return 'missing';
  }
  if (root === undefined) return 'built';
  return stamp.sources === sourceDigest(root) ? 'built' : 'stale';
}

/** The Vite plugin: writes the mark once every other step of the build has finished. */
export function buildStamp(): Plugin {
  let outDir = '';
  let sources = '';
  return {
    name: 'iris:build-stamp',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      // Read before the build starts: a source saved while it runs makes the next start build again.
      sources = sourceDigest(config.root);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await writeFile(join(outDir, BUILD_STAMP), `${JSON.stringify({ sources })}\n`);
      },
    },
  };
}
