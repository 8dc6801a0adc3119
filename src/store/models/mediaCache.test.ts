import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import type { MediaRow } from '../schema';
import type { IrisDB } from '../db';
import {
  cacheSize,
  clearMediaCache,
  enforceCacheCap,
  isQuotaError,
  pickEvictions,
  pickOldest,
  withQuotaRetry,
} from './mediaCache';
import { setCacheCap } from './mediaSettings';

const MiB = 1024 * 1024;

async function putMedia(
  db: IrisDB,
  id: string,
  size: number,
  lastUsed: number,
  state: MediaRow['state'] = 'ready',
): Promise<void> {
  await db.media.put({
    media_id: id,
    kind: 'image',
    mime: 'image/png',
    size,
    filename: `${id}.png`,
    state,
    lastUsed,
    lane: 'L',
    message_id: `m-${id}`,
  });
  if (state === 'ready' || state === 'local')
    await db.mediaBlobs.put({ media_id: id, blob: new Blob([new Uint8Array(size)]) });
  await db.messages.put({
    message_id: `m-${id}`,
    lane: 'L',
    chat_id: 'L',
    role: 'assistant',
    text: id,
    ts: lastUsed,
    status: 'final',
  });
}

describe('eviction policy', () => {
  const rows = [
    { media_id: 'a', size: 4, lastUsed: 10 },
    { media_id: 'b', size: 4, lastUsed: 30 },
    { media_id: 'c', size: 4, lastUsed: 20 },
  ];
  it('evicts least recently used first until the rest fits', () => {
    expect(pickEvictions(rows, 12)).toEqual([]);
    expect(pickEvictions(rows, 11)).toEqual(['a']);
    expect(pickEvictions(rows, 8)).toEqual(['a']);
    expect(pickEvictions(rows, 7)).toEqual(['a', 'c']);
    expect(pickEvictions(rows, 0)).toEqual(['a', 'c', 'b']);
  });
  it('never evicts what it is told to keep', () => {
    expect(pickEvictions(rows, 4, new Set(['a']))).toEqual(['c', 'b']);
    expect(pickEvictions(rows, 0, new Set(['a', 'b', 'c']))).toEqual([]);
  });
  it('frees at least the bytes asked for, oldest first, and at least one file', () => {
    expect(pickOldest(rows, 5)).toEqual(['a', 'c']);
    expect(pickOldest(rows, 0)).toEqual(['a']);
    expect(pickOldest([], 100)).toEqual([]);
  });
});

describe('the media cache in IndexedDB', () => {
  it('beyond the cap the oldest media loses its bytes, shows as evicted, and every message stays', async () => {
    const db = freshDb();
    await putMedia(db, 'old', 3 * MiB, 1);
    await putMedia(db, 'mid', 3 * MiB, 2);
    await putMedia(db, 'new', 3 * MiB, 3);
    await putMedia(db, 'unsent', 3 * MiB, 0, 'local');
    expect(await cacheSize(db)).toBe(9 * MiB);
    await setCacheCap(db, 7 * MiB);
    expect(await enforceCacheCap(db)).toEqual({ count: 1, bytes: 3 * MiB });
    expect((await db.media.get('old'))!.state).toBe('evicted');
    expect(await db.mediaBlobs.get('old')).toBeUndefined();
    expect((await db.media.get('mid'))!.state).toBe('ready');
    // Unsent attachments are not cache: never evicted.
    expect(await db.mediaBlobs.get('unsent')).toBeDefined();
    expect(await db.messages.count()).toBe(4);
    expect(await cacheSize(db)).toBe(6 * MiB);
    db.close();
  });

  it('clearing the cache evicts every download and nothing else', async () => {
    const db = freshDb();
    await putMedia(db, 'a', 10, 1);
    await putMedia(db, 'b', 10, 2);
    await putMedia(db, 'remote', 10, 3, 'remote');
    await putMedia(db, 'unsent', 10, 4, 'local');
    expect(await clearMediaCache(db)).toEqual({ count: 2, bytes: 20 });
    expect((await db.media.toArray()).map((r) => [r.media_id, r.state]).sort()).toEqual([
      ['a', 'evicted'],
      ['b', 'evicted'],
      ['remote', 'remote'],
      ['unsent', 'local'],
    ]);
    expect(await db.mediaBlobs.count()).toBe(1);
    expect(await db.messages.count()).toBe(4);
    db.close();
  });

  it('a write refused for quota evicts the oldest media, says so in a toast, and is tried once more', async () => {
    const db = freshDb();
    await putMedia(db, 'a', 100, 1);
    await putMedia(db, 'b', 100, 2);
    let calls = 0;
    const result = await withQuotaRetry(
      db,
      async () => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('full'), { name: 'QuotaExceededError' });
        return 'written';
      },
      { bytes: 50 },
    );
    expect(result).toBe('written');
    expect(calls).toBe(2);
    expect((await db.media.get('a'))!.state).toBe('evicted');
    expect((await db.media.get('b'))!.state).toBe('ready');
    const [toast] = await db.toasts.toArray();
    expect(toast).toMatchObject({ kind: 'media', title: 'Storage was full' });
    expect(toast!.body).toContain('one older file (100 bytes)');
    db.close();
  });

  it('other errors, and a second refusal, are thrown', async () => {
    const db = freshDb();
    await putMedia(db, 'a', 100, 1);
    await expect(withQuotaRetry(db, async () => Promise.reject(new Error('other')))).rejects.toThrow('other');
    expect((await db.media.get('a'))!.state).toBe('ready');
    const full = () => Promise.reject(Object.assign(new Error('full'), { name: 'QuotaExceededError' }));
    await expect(withQuotaRetry(db, full)).rejects.toThrow('full');
    // Nothing left to evict: refused at once.
    await expect(withQuotaRetry(db, full)).rejects.toThrow('full');
    db.close();
  });

  it('recognises quota errors wrapped by Dexie', () => {
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError(new Error('x'))).toBe(false);
    expect(isQuotaError(undefined)).toBe(false);
  });
});
