// The site the benchmarks load: a snapshot of the built app (dist/, so a rebuild by someone else
// mid-run cannot change what is measured) plus the bench pages under /bench/, and the in-page
// instrumentation as a classic script. Pages are bundled with Vite (the project's own bundler).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'vite';

export const BENCH_DIR = resolve(import.meta.dirname, '..');
const ROOT_DIR = resolve(BENCH_DIR, '..');
const BUILDS_DIR = join(BENCH_DIR, '.build');
/** Each run builds into its own directory, so two runs in one tree (a developer's and `npm test`'s) do not collide. */
const BUILD_DIR = join(BUILDS_DIR, String(process.pid));

export interface Site {
  /** Serve this directory: the app at /, bench pages at /bench/pages/*.html and /bench/bare/*.html. */
  dir: string;
  /** The app snapshot's own files (for the bundle figures). */
  appDir: string;
  /** Source of the instrumentation script, for addInitScript. */
  instrument: string;
  /** Removes this run's build directory. */
  remove(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Build directories of runs that are gone (killed before they could clean up). */
function removeStaleBuilds(): void {
  if (!existsSync(BUILDS_DIR)) return;
  for (const name of readdirSync(BUILDS_DIR)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || !isRunning(pid)) rmSync(join(BUILDS_DIR, name), { recursive: true, force: true });
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Snapshots dist/ (or, with `fromSource`, builds the app with its own Vite config into bench/.build)
 * and builds the bench pages. Throws (harness error) when the app is not built.
 */
export async function prepareSite(log: (line: string) => void, fromSource = false): Promise<Site> {
  const siteDir = join(BUILD_DIR, 'site');
  const appDir = join(BUILD_DIR, 'app');
  removeStaleBuilds();
  rmSync(BUILD_DIR, { recursive: true, force: true });
  mkdirSync(BUILD_DIR, { recursive: true });
  if (fromSource) {
    log(`bench: building the app from source (vite build into ${relative(ROOT_DIR, appDir)})`);
    // In a child process: the PWA plugin's own build logs to stdout, and stdout is for the table only.
    const built = spawnSync(
      process.execPath,
      [
        join(ROOT_DIR, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--outDir',
        appDir,
        '--emptyOutDir',
        '--logLevel',
        'error',
      ],
      {
        cwd: ROOT_DIR,
        stdio: ['ignore', 2, 2], // the child's stdout goes to our stderr
      },
    );
    if (built.status !== 0) throw new Error(`vite build of the app failed (exit ${built.status ?? built.signal})`);
  } else {
    const dist = join(ROOT_DIR, 'dist');
    if (!existsSync(join(dist, 'index.html')))
      throw new Error('the app is not built: run `npm run build` first, or pass --build (no dist/index.html)');
    if (newestMtime(join(ROOT_DIR, 'src')) > statSync(join(dist, 'index.html')).mtimeMs) {
      log('bench: note: src/ changed after the last build; measuring dist/ as it is (--build measures the source)');
    }
    cpSync(dist, appDir, { recursive: true, preserveTimestamps: true }); // the server trusts a .br/.gz copy only if not older than its file
  }
  cpSync(appDir, siteDir, { recursive: true, preserveTimestamps: true });

  const html = ['pages', 'bare'].flatMap((sub) =>
    readdirSync(join(BENCH_DIR, sub))
      .filter((name) => name.endsWith('.html'))
      .map((name) => join(BENCH_DIR, sub, name)),
  );
  const common = {
    configFile: false as const,
    root: BENCH_DIR,
    publicDir: false as const,
    logLevel: 'warn' as const,
    define: { __APP_VERSION__: JSON.stringify('bench') },
  };
  await build({
    ...common,
    base: '/bench/',
    build: {
      outDir: join(siteDir, 'bench'),
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: {
        input: Object.fromEntries(html.map((file) => [relative(BENCH_DIR, file).replace(/\.html$/, ''), file])),
      },
    },
  });
  const instrumentOut = join(BUILD_DIR, 'instrument');
  await build({
    ...common,
    build: {
      outDir: instrumentOut,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      lib: {
        entry: join(BENCH_DIR, 'inpage', 'instrument.ts'),
        formats: ['iife'],
        name: 'benchInstrument',
        fileName: () => 'instrument.js',
      },
    },
  });
  return {
    dir: siteDir,
    appDir,
    instrument: readFileSync(join(instrumentOut, 'instrument.js'), 'utf8'),
    remove: () => rmSync(BUILD_DIR, { recursive: true, force: true }),
  };
}
