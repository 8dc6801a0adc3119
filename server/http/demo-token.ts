import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockDownDataDir } from './data-dir';

const TOKEN_FILE = 'demo-token';
const VALID_TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/** Creates the data directory if it does not exist yet, and makes all of it private to this user. */
export function ensureDataDir(dataDir: string): void {
  lockDownDataDir(dataDir);
}

/**
 * The demo gateway's token: made on first start and kept in the data directory, so the
 * pairing link a person saved keeps working after a restart.
 */
export function loadOrCreateDemoToken(dataDir: string): string {
  const file = join(dataDir, TOKEN_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (VALID_TOKEN.test(stored)) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(24).toString('base64url');
  // Write then rename, so a crash never leaves a half-written token behind.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return token;
}
