// The mark of a whole build: the last thing `vite build` writes (after the service worker and the
// precompressed copies). `npm start` serves a folder only with it, so a first build cut short (Ctrl-C,
// a full disk) is built again instead of being served without its service worker, and so without
// offline reading or notifications, for good.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The mark's file name in the build's folder (JSON, not precached, harmless if fetched). */
export const BUILD_STAMP = 'build-complete.json';

/** The Vite plugin: writes the mark once every other step of the build has finished. */
export function buildStamp(): Plugin {
  let outDir = '';
  return {
    name: 'iris:build-stamp',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await writeFile(join(outDir, BUILD_STAMP), `${JSON.stringify({ complete: true })}\n`);
      },
    },
  };
}
