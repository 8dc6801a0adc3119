// Durable state as plain files under dataDir. Every write is atomic (temp file, then rename) so a
// crash leaves either the old or the new file, never a torn one. Without a dataDir it does nothing.
import { appendFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';

const FLUSH_DELAY_MS = 20;

export class Persistence {
  private readonly root: string | undefined;
  private readonly dirty = new Map<string, { produce: () => unknown; raw: boolean }>();
  private timer: NodeJS.Timeout | undefined;
  private tmpCounter = 0;
  private closed = false;

  constructor(
    dataDir: string | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.root = dataDir ? resolve(dataDir) : undefined;
    if (this.root) mkdirSync(this.root, { recursive: true, mode: 0o700 });
  }

  get enabled(): boolean {
    return this.root !== undefined;
  }

  /** Absolute path of a relative name; refuses anything that would leave the data directory. */
  private path(rel: string): string {
    if (!this.root) throw new Error('persistence disabled');
    const full = resolve(this.root, rel);
    if (full !== this.root && !full.startsWith(this.root + sep)) throw new Error(`path escapes data directory: ${rel}`);
    return full;
  }

  /** Parsed JSON of a file, or undefined when absent or unreadable (a corrupt file is logged, not fatal). */
  readJson<T>(rel: string): T | undefined {
    if (!this.root) return undefined;
    let text: string;
    try {
      text = readFileSync(this.path(rel), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      this.log(`persistence: ${rel} is not valid JSON; ignoring it`);
      return undefined;
    }
  }

  /** File names in a sub directory (empty when absent). */
  list(relDir: string): string[] {
    if (!this.root) return [];
    try {
      return readdirSync(this.path(relDir)).filter((n) => !n.includes('.tmp-'));
    } catch {
      return [];
    }
  }

  /** Record that a file must be rewritten from `produce()` soon (as JSON, or as text when `raw`). */
  mark(rel: string, produce: () => unknown, raw = false): void {
    if (!this.root || this.closed) return;
    this.dirty.set(rel, { produce, raw });
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flushSync();
      }, FLUSH_DELAY_MS);
      this.timer.unref?.();
    }
  }

  /** Write pending files now (all, or only `only`); called before a response that promises durability. */
  flushSync(only?: string): void {
    if (!this.root) return;
    let pending: [string, { produce: () => unknown; raw: boolean }][];
    if (only !== undefined) {
      const entry = this.dirty.get(only);
      if (!entry) return;
      this.dirty.delete(only);
      pending = [[only, entry]];
    } else {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
      pending = [...this.dirty];
      this.dirty.clear();
    }
    for (const [rel, { produce, raw }] of pending) {
      try {
        this.writeAtomic(rel, raw ? String(produce()) : JSON.stringify(produce()));
      } catch (err) {
        this.log(`persistence: writing ${rel} failed: ${(err as Error).message}`);
      }
    }
  }

  writeBytesSync(rel: string, bytes: Uint8Array): void {
    this.writeAtomic(rel, bytes);
  }

  /** Append text to a journal file now (a torn last line after a crash is skipped by its reader). */
  appendSync(rel: string, text: string): void {
    if (!this.root || this.closed) return;
    const full = this.path(rel);
    try {
      appendFileSync(full, text, { mode: 0o600 });
    } catch {
      mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
      appendFileSync(full, text, { mode: 0o600 });
    }
  }

  readText(rel: string): string | undefined {
    if (!this.root) return undefined;
    try {
      return readFileSync(this.path(rel), 'utf8');
    } catch {
      return undefined;
    }
  }

  readBytes(rel: string): Buffer | undefined {
    if (!this.root) return undefined;
    try {
      return readFileSync(this.path(rel));
    } catch {
      return undefined;
    }
  }

  remove(rel: string): void {
    if (!this.root) return;
    this.dirty.delete(rel);
    try {
      rmSync(this.path(rel), { force: true });
    } catch (err) {
      this.log(`persistence: removing ${rel} failed: ${(err as Error).message}`);
    }
  }

  close(): void {
    this.flushSync();
    this.closed = true;
  }

  private writeAtomic(rel: string, data: string | Uint8Array): void {
    const full = this.path(rel);
    mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
    const tmp = `${full}.tmp-${process.pid}-${++this.tmpCounter}`;
    // Private to this user (history, devices, media): see server/http/data-dir.ts.
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, full);
  }
}

/** A file name derived from an arbitrary key; it can never contain a path separator or `..`. */
export function safeName(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}
