import { randomBytes } from 'node:crypto';
import {
  promises as fsp,
  mkdirSync,
  writeFileSync,
  linkSync,
  unlinkSync,
  openSync,
  fsyncSync,
  closeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Private files (keys, secret topics): owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

function writeTempSync(tmp: string, data: string): void {
  // 'wx' refuses to follow or reuse an existing file; fsync so a crash never leaves a torn file behind the rename.
  const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `path` with `data` only if it does not exist yet (atomically: two processes starting at
 * once cannot both win). Returns false when another writer got there first.
 */
export function createFileExclusiveSync(path: string, data: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = tempPathFor(path);
  try {
    writeTempSync(tmp, data);
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  }
}

/** Writes `data` to `path` so a reader sees either the old or the new file, never a partial one. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await fsp.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = tempPathFor(path);
  try {
    const handle = await fsp.open(tmp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, path);
  } catch (err) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
}
