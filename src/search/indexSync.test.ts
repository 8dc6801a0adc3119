import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IrisDB } from '../store/db';
import type { MessageRow } from '../store/schema';
import { freshDb as newDb } from '../testing/db';
import { createLocalIndex } from './localIndex';
import { syncIndexWithDb, type IndexSync } from './indexSync';

const open: { db: IrisDB; sync?: IndexSync }[] = [];

function freshDb() {
  const db = newDb();
  open.push({ db });
  return db;
}

afterEach(async () => {
  for (const { db, sync } of open.splice(0)) {
    sync?.stop();
    await db.delete();
  }
});

const row = (message_id: string, text: string, ts: number, extra: Partial<MessageRow> = {}): MessageRow => ({
  message_id,
  lane: 'general',
  chat_id: 'general',
  role: 'user',
  text,
  ts,
  status: 'final',
  ...extra,
});

describe('syncIndexWithDb', () => {
  it('builds from the table in chunks, yielding between them', async () => {
    const db = freshDb();
    await db.messages.bulkPut(
      Array.from({ length: 250 }, (_, i) => row(`m${String(i).padStart(3, '0')}`, `note ${i}`, i)),
    );
    const index = createLocalIndex();
    let yields = 0;
    const sync = syncIndexWithDb(index, db, {
      chunkSize: 100,
      sliceMs: Infinity,
      yieldToPage: async () => {
        yields++;
      },
    });
    open[open.length - 1].sync = sync;
    await sync.ready;
    expect(index.size).toBe(250);
    expect(yields).toBe(2);
    expect(index.search('note', { limit: 1 })[0].message_id).toBe('m249');
  });

  it('puts a chunk in the index a slice at a time, and a search between slices finds what is in', async () => {
    const db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 5 }, (_, i) => row(`m${i}`, `file ${i}`, i)));
    const index = createLocalIndex();
    const seenBySearch: number[] = [];
    const sync = syncIndexWithDb(index, db, {
      // Every row is a slice of its own (each "over budget"): a yield after each.
      sliceMs: 0,
      yieldToPage: async () => {
        seenBySearch.push(index.search('file').length);
      },
    });
    open[open.length - 1].sync = sync;
    await sync.ready;
    expect(seenBySearch).toEqual([1, 2, 3, 4, 5]);
    expect(index.size).toBe(5);
  });

  it('follows puts, updates and deletes after the build', async () => {
    const db = freshDb();
    await db.messages.put(row('a', 'alpha', 1));
    const index = createLocalIndex();
    const sync = syncIndexWithDb(index, db, { batchDelayMs: 5 });
    open[open.length - 1].sync = sync;
    await sync.ready;
    expect(index.search('alpha').map((h) => h.message_id)).toEqual(['a']);

    await db.messages.bulkPut([row('b', 'bravo', 2), row('c', 'streaming bravo', 3, { status: 'streaming' })]);
    await sync.flush();
    expect(index.search('bravo').map((h) => h.message_id)).toEqual(['b']);

    // The stream finishes: the final text is indexed.
    await db.messages.update('c', { status: 'final', text: 'final charlie' });
    await sync.flush();
    expect(index.search('charlie').map((h) => h.message_id)).toEqual(['c']);

    await db.messages.delete('a');
    await sync.flush();
    expect(index.search('alpha')).toEqual([]);

    await db.messages.clear();
    await sync.flush();
    expect(index.size).toBe(0);
  });

  it('reads a streaming row again when its status changes, not on each write of its growing text', async () => {
    const db = freshDb();
    const index = createLocalIndex();
    const sync = syncIndexWithDb(index, db, { batchDelayMs: 1, streamQuietMs: 60_000 });
    open[open.length - 1].sync = sync;
    await sync.ready;
    await db.messages.put(row('c', '', 1, { role: 'assistant', status: 'streaming' }));
    await sync.flush();
    const reads = vi.spyOn(db.messages, 'bulkGet');
    // The reply grows as the reducer writes it (modify: no index key changes)…
    for (const text of ['one', 'one two', 'one two three'])
      await db.messages
        .where(':id')
        .equals('c')
        .modify((r) => void (r.text = text));
    // …while another message is stored and indexed meanwhile.
    await db.messages.put(row('d', 'delta', 2));
    await vi.waitFor(() => expect(index.search('delta').map((h) => h.message_id)).toEqual(['d']));
    expect(reads.mock.calls.flatMap(([keys]) => keys)).not.toContain('c');
    // Its stop changes its status: the final text is indexed without waiting for the quiet time.
    await db.messages.update('c', { status: 'final', text: 'one two three four' });
    await vi.waitFor(() => expect(index.search('four').map((h) => h.message_id)).toEqual(['c']));
  });

  it('replaces a pending message by its echo', async () => {
    const db = freshDb();
    const index = createLocalIndex();
    const sync = syncIndexWithDb(index, db, { batchDelayMs: 5 });
    open[open.length - 1].sync = sync;
    await sync.ready;
    await db.messages.put(row('local:1', 'hello gateway', 1, { status: 'pending' }));
    await sync.flush();
    await db.transaction('rw', db.messages, async () => {
      await db.messages.delete('local:1');
      await db.messages.put(row('srv-1', 'hello gateway', 2, { status: 'sent' }));
    });
    await sync.flush();
    expect(index.search('hello').map((h) => h.message_id)).toEqual(['srv-1']);
  });

  it('stopped during the first build, reads no further chunk', async () => {
    const db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 250 }, (_, i) => row(`m${String(i).padStart(3, '0')}`, 'note', i)));
    const index = createLocalIndex();
    let chunks = 0;
    const sync: IndexSync = syncIndexWithDb(index, db, {
      chunkSize: 100,
      sliceMs: Infinity,
      yieldToPage: async () => {
        chunks++;
        sync.stop();
      },
    });
    open[open.length - 1].sync = sync;
    await sync.ready;
    expect(chunks).toBe(1);
    expect(index.size).toBe(100);
  });

  it('picks up writes made while it was building', async () => {
    const db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 50 }, (_, i) => row(`m${i}`, `old ${i}`, i)));
    const index = createLocalIndex();
    let first = true;
    const sync = syncIndexWithDb(index, db, {
      chunkSize: 10,
      batchDelayMs: 5,
      yieldToPage: async () => {
        if (!first) return;
        first = false;
        await db.messages.put(row('zz-new', 'fresh arrival', 100));
        await db.messages.delete('m0');
      },
    });
    open[open.length - 1].sync = sync;
    await sync.flush();
    expect(index.search('fresh').map((h) => h.message_id)).toEqual(['zz-new']);
    expect(index.has('m0')).toBe(false);
  });

  it('reads the table once after a run of whole-table changes, and keeps answering meanwhile', async () => {
    const db = freshDb();
    await db.messages.bulkPut(Array.from({ length: 250 }, (_, i) => row(`a${String(i).padStart(3, '0')}`, 'old', i)));
    const index = createLocalIndex();
    let reads = 0;
    let sizeWhileReading = Infinity;
    const sync = syncIndexWithDb(index, db, {
      chunkSize: 100,
      sliceMs: Infinity,
      rebuildQuietMs: 100,
      yieldToPage: async () => {
        reads++;
        sizeWhileReading = Math.min(sizeWhileReading, index.search('old', { limit: 1000 }).length);
      },
    });
    open[open.length - 1].sync = sync;
    await sync.ready;
    const firstBuild = reads;
    sizeWhileReading = Infinity;

    // Five chunks of a replay, each a bulkPut that Dexie reports as the whole table.
    for (let c = 0; c < 5; c++)
      await db.messages.bulkPut(
        Array.from({ length: 60 }, (_, i) => row(`b${c}${String(i).padStart(2, '0')}`, `new ${c}`, 1000 + i)),
      );
    await db.messages.delete('a000');
    await sync.flush();

    expect(index.size).toBe(249 + 300);
    expect(index.search('new', { limit: 1000 })).toHaveLength(300);
    expect(index.has('a000')).toBe(false);
    // One re-read of the 549 rows (5 chunks of 100 after the first), not one per bulkPut.
    expect(reads - firstBuild).toBe(5);
    // The old messages stayed findable while the table was read again.
    expect(sizeWhileReading).toBeGreaterThanOrEqual(249);
  });
});
