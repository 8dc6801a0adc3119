import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../src/testing/db';
import { waitForBytes } from './wait';

describe('waiting for bytes a window downloads', () => {
  it('answers as soon as the bytes are stored', async () => {
    const db = freshDb();
    await db.media.put({
      media_id: 'm',
      kind: 'image',
      mime: 'image/png',
      size: 3,
      filename: 'm.png',
      state: 'downloading',
      lastUsed: 0,
    });
    setTimeout(() => void db.mediaBlobs.put({ media_id: 'm', blob: new Blob(['abc']) }), 150);
    const started = Date.now();
    const stored = await waitForBytes(db, 'm', 5000, 20);
    expect(stored?.blob.size).toBe(3);
    expect(Date.now() - started).toBeLessThan(1000);
  });
  it('gives up after the timeout (the worker then answers 504)', async () => {
    const db = freshDb();
    await db.media.put({
      media_id: 'm',
      kind: 'image',
      mime: 'image/png',
      size: 3,
      filename: 'm.png',
      state: 'remote',
      lastUsed: 0,
    });
    const started = Date.now();
    expect(await waitForBytes(db, 'm', 200, 20)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
  it('stops waiting when the media is gone', async () => {
    const db = freshDb();
    await db.media.put({
      media_id: 'm',
      kind: 'image',
      mime: 'image/png',
      size: 3,
      filename: 'm.png',
      state: 'remote',
      lastUsed: 0,
    });
    setTimeout(() => void db.media.delete('m'), 50);
    const started = Date.now();
    expect(await waitForBytes(db, 'm', 5000, 20)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
