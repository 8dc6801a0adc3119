// The media cache: downloaded bytes are kept for offline reading, least recently used first out
// beyond a size cap, and first of all when the browser says storage is full. Only media bytes are
// ever evicted: messages stay, and an evicted file can be downloaded again.
import type { IrisDB } from '../db';
import { addToast } from './toasts';
import type { MediaRow } from '../schema';
import { formatBytes } from '../../lib/format';
import { getMediaSettings } from './mediaSettings';

export interface Evicted {
  count: number;
  bytes: number;
}

type Candidate = Pick<MediaRow, 'media_id' | 'size' | 'lastUsed'>;

/**
 * Which downloaded media to evict so the rest fits in `capBytes`: the least recently used first,
 * never one in `keep` (what was just downloaded or is on screen). Pure, for tests.
 */
export function pickEvictions(
  rows: readonly Candidate[],
  capBytes: number,
  keep: ReadonlySet<string> = new Set(),
): string[] {
  let total = rows.reduce((sum, r) => sum + Math.max(0, r.size), 0);
  const out: string[] = [];
  for (const row of [...rows].sort((a, b) => a.lastUsed - b.lastUsed || a.media_id.localeCompare(b.media_id))) {
    if (total <= capBytes) break;
    if (keep.has(row.media_id)) continue;
    out.push(row.media_id);
    total -= Math.max(0, row.size);
  }
  return out;
}

/** The least recently used media to free at least `bytes` (at least one file, when there is one). */
export function pickOldest(rows: readonly Candidate[], bytes: number, keep: ReadonlySet<string> = new Set()): string[] {
  const total = rows.reduce((sum, r) => sum + Math.max(0, r.size), 0);
  return pickEvictions(rows, Math.max(0, total - Math.max(1, bytes)), keep);
}

/** Downloaded media (the cache): rows in state ready. Unsent attachments (local) are never evicted. */
async function cachedMedia(db: IrisDB): Promise<MediaRow[]> {
  return db.media.where('state').equals('ready').toArray();
}

/** Bytes of downloaded media. */
export async function cacheSize(db: IrisDB): Promise<number> {
  return (await cachedMedia(db)).reduce((sum, r) => sum + Math.max(0, r.size), 0);
}

/** Drops the bytes of these media; their rows stay, in state evicted ("Download again"). */
async function evictMedia(db: IrisDB, ids: readonly string[]): Promise<Evicted> {
  if (ids.length === 0) return { count: 0, bytes: 0 };
  const rows = (await db.media.bulkGet([...ids])).filter((row): row is MediaRow => row?.state === 'ready');
  if (rows.length === 0) return { count: 0, bytes: 0 };
  // The bytes go first, in a transaction that only deletes: once the origin is over its quota the
  // browser refuses every write that adds a byte (this row update, a toast) but still lets a delete
  // through. One transaction for both was refused as a whole, so a full origin could never be emptied.
  await db.mediaBlobs.bulkDelete(rows.map((row) => row.media_id));
  return db.transaction('rw', db.media, async () => {
    let count = 0;
    let bytes = 0;
    for (const row of rows) {
      const current = await db.media.get(row.media_id);
      if (current?.state !== 'ready') continue;
      await db.media.update(row.media_id, { state: 'evicted', progress: 0 });
      count++;
      bytes += Math.max(0, row.size);
    }
    return { count, bytes };
  });
}

/** Evicts the least recently used media beyond the cap (the setting unless given). */
export async function enforceCacheCap(
  db: IrisDB,
  options: { capBytes?: number; keep?: ReadonlySet<string> } = {},
): Promise<Evicted> {
  const cap = options.capBytes ?? (await getMediaSettings(db)).cacheCap;
  return evictMedia(db, pickEvictions(await cachedMedia(db), cap, options.keep));
}

/** Frees at least `bytes` by evicting the least recently used media. */
export async function evictForSpace(db: IrisDB, bytes: number, keep?: ReadonlySet<string>): Promise<Evicted> {
  return evictMedia(db, pickOldest(await cachedMedia(db), bytes, keep));
}

/** "Clear media cache": every downloaded file goes (unsent attachments stay). */
export async function clearMediaCache(db: IrisDB): Promise<Evicted> {
  return evictMedia(
    db,
    (await cachedMedia(db)).map((r) => r.media_id),
  );
}

/** The browser refused a write for lack of space (IndexedDB, through Dexie or not). */
export function isQuotaError(error: unknown): boolean {
  for (
    let e = error as { name?: unknown; inner?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.inner as typeof e, depth++
  ) {
    if (e.name === 'QuotaExceededError') return true;
  }
  return false;
}

/** Tells the person that media went to make room (a toast row). */
export async function reportEvicted(db: IrisDB, evicted: Evicted, now = Date.now()): Promise<void> {
  if (evicted.count === 0) return;
  const files = evicted.count === 1 ? 'one older file' : `${evicted.count} older files`;
  await addToast(db, {
    kind: 'media',
    title: 'Storage was full',
    body: `Removed ${files} (${formatBytes(evicted.bytes)}) from this device to make room. Tap one to download it again.`,
    ts: now,
  });
}

/**
 * Runs a write; if storage is full, evicts the oldest media (enough for `bytes`, and a quarter of
 * the cache) and tries once more. A second refusal is thrown.
 */
export async function withQuotaRetry<T>(
  db: IrisDB,
  write: () => Promise<T>,
  options: { bytes?: number; keep?: ReadonlySet<string> } = {},
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isQuotaError(err)) throw err;
    const want = Math.max(options.bytes ?? 0, Math.floor((await cacheSize(db)) / 4));
    const evicted = await evictForSpace(db, want, options.keep);
    if (evicted.count === 0) throw err;
    await reportEvicted(db, evicted);
    return write();
  }
}

/** Whether the browser's storage has less than `bytes` (plus a margin) left; false when it cannot tell. */
export async function storageShort(bytes: number): Promise<boolean> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate?.quota || estimate.usage === undefined) return false;
    return estimate.quota - estimate.usage < bytes + 10 * 1024 * 1024;
  } catch {
    return false;
  }
}
