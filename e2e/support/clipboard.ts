// The system clipboard is one for every browser the test workers run: a test that writes it and one that
// reads it back, in two workers at once, read each other's text (CI saw a copied message come back as a
// pasted log). Each use of it, from write to read, holds a lock shared by the workers (a directory).
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'iris-e2e-clipboard.lock');
/** A lock older than this was left by a killed worker. */
const STALE_MS = 30_000;

export async function withClipboard<T>(use: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (Date.now() > deadline) throw new Error(`the clipboard lock ${LOCK} was not released in 60 s`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await use();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
