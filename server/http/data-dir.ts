// The data directory holds the demo token, VAPID private key, relay topics, devices and history:
// readable by this user only. Files and folders made by an older version, by hand or under a loose
// umask are tightened at every start, not only the ones made now.
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Creates `dataDir` if needed, then makes every folder in it 0700 and every file 0600 (symlinks are left alone). */
export function lockDownDataDir(dataDir: string): void {
  makeDirs(resolve(dataDir));
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(path, PRIVATE_DIR_MODE);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stat.isFile() && (stat.mode & 0o777) !== PRIVATE_FILE_MODE) {
      chmodSync(path, PRIVATE_FILE_MODE);
    }
  };
  walk(dataDir);
}

/** Makes one folder; true when it is there now (made, or already a folder), false when its parent is missing. */
function makeDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && statSync(dir).isDirectory()) return true; // a file of that name is an error
    if (code === 'ENOENT' && dirname(dir) !== dir) return false;
    throw error;
  }
}

/**
 * `mkdir -p`, one folder at a time: Node's own `mkdirSync(…, { recursive: true })` never returns where
 * a parent exists but refuses a child with ENOENT (under `/proc`), so `npm start` hung without a word.
 */
function makeDirs(dir: string): void {
  if (makeDir(dir)) return;
  makeDirs(dirname(dir));
  if (!makeDir(dir)) throw Object.assign(new Error(`cannot make ${dir}`), { code: 'ENOENT' });
}
