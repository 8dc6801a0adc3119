import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshDb } from '../testing/db';
import { until } from '../testing/until';
import type { IrisDB } from './db';
import { live, liveOn, liveShared } from './live';
import { liveReadsSettled, readsInFlight } from './liveReads';

// The app runs Solid's browser build (reactive); Node would resolve the server build.
vi.mock('solid-js', async () => {
  // @ts-expect-error the browser build has no .d.ts of its own; its types are solid-js's.
  return await import('solid-js/dist/solid.js');
});
const { createRoot, createSignal } = await import('solid-js');

let db: IrisDB;
afterEach(async () => {
  db?.close();
});

const names = () =>
  db.channels
    .orderBy('order')
    .toArray()
    .then((rows) => rows.map((r) => r.name));

describe('live', () => {
  it('starts at the initial value, follows writes, and stops with its owner', async () => {
    db = freshDb();
    let dispose!: () => void;
    const value = createRoot((d) => {
      dispose = d;
      return live(names, ['none']);
    });
    expect(value()).toEqual(['none']);
    await until(() => value().length === 0);

    await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
    await until(() => value().length === 1);
    expect(value()).toEqual(['General']);

    await db.channels.put({ chat_id: 'b', name: 'Work', kind: 'channel', order: 1 });
    await until(() => value().length === 2);
    expect(value()).toEqual(['General', 'Work']);

    dispose();
    await db.channels.put({ chat_id: 'c', name: 'Late', kind: 'channel', order: 2 });
    await new Promise((r) => setTimeout(r, 50));
    expect(value()).toEqual(['General', 'Work']);
  });

  it('keeps the last value when the query fails', async () => {
    db = freshDb();
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const value = createRoot(() =>
        live(async () => {
          const n = await db.channels.count();
          if (n > 0) throw new Error('boom');
          return n;
        }),
      );
      expect(value()).toBeUndefined();
      await until(() => value() === 0);
      await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
      await until(() => errors.length > 0);
      expect(value()).toBe(0);
    } finally {
      console.error = original;
    }
  });

  it('liveOn follows its source signal and drops the old subscription', async () => {
    db = freshDb();
    await db.channels.bulkPut([
      { chat_id: 'a', name: 'A', kind: 'channel', order: 0 },
      { chat_id: 'b', name: 'B', kind: 'channel', order: 1 },
    ]);
    const [id, setId] = createSignal('a');
    let runs = 0;
    const value = createRoot(() =>
      liveOn(
        id,
        (chatId) => {
          runs += 1;
          return db.channels.get(chatId).then((c) => c?.name ?? '-');
        },
        '',
      ),
    );
    await until(() => value() === 'A');
    setId('b');
    expect(value()).toBe('');
    await until(() => value() === 'B');
    const before = runs;
    await db.channels.update('a', { name: 'A2' });
    await new Promise((r) => setTimeout(r, 50));
    expect(value()).toBe('B');
    expect(runs).toBe(before);
    await db.channels.update('b', { name: 'B2' });
    await until(() => value() === 'B2');
  });
});

describe('liveReadsSettled after a live query', () => {
  it('resumes its waiter outside the query, so the waiter can write (the catch-up writes its next chunk)', async () => {
    db = freshDb();
    await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
    let gate: Promise<void> = Promise.resolve();
    let dispose!: () => void;
    // An async querier (as the lane's): Dexie follows it across its awaits, and it settles inside the query.
    const value = createRoot((d) => {
      dispose = d;
      return live(async () => {
        const rows = await db.channels.toArray();
        await gate;
        await db.channels.count();
        return rows.map((r) => r.name);
      }, ['none']);
    });
    await until(() => value().length === 1);
    for (let n = 0; n < 10; n++) {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      await db.channels.put({ chat_id: `c${n}`, name: `C${n}`, kind: 'default', order: n + 1 });
      await until(() => readsInFlight() > 0);
      // Woken when the query's read settles: the write after it must not run as part of the query.
      const settled = liveReadsSettled(5_000);
      open();
      await settled;
      await db.transaction('rw', db.channels, () =>
        db.channels.put({ chat_id: `d${n}`, name: `D${n}`, kind: 'default', order: 100 + n }),
      );
    }
    await until(() => value().length === 21);
    dispose();
  });
});

describe('liveShared', () => {
  it('runs one query for every caller of a key, starts a later caller at the current result, and ends with the last', async () => {
    db = freshDb();
    let runs = 0;
    const counting = () => {
      runs += 1;
      return names();
    };
    let disposeFirst!: () => void;
    const first = createRoot((d) => {
      disposeFirst = d;
      return liveShared(db, 'names', counting, ['none']);
    });
    await until(() => first().length === 0);
    let disposeSecond!: () => void;
    const second = createRoot((d) => {
      disposeSecond = d;
      return liveShared(db, 'names', counting, ['none']);
    });
    expect(second()).toEqual([]);

    runs = 0;
    await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
    await until(() => first().length === 1 && second().length === 1);
    expect(runs).toBe(1);

    // The first caller leaving does not end the query the second still reads.
    disposeFirst();
    await db.channels.put({ chat_id: 'b', name: 'Work', kind: 'channel', order: 1 });
    await until(() => second().length === 2);

    disposeSecond();
    runs = 0;
    await db.channels.put({ chat_id: 'c', name: 'Late', kind: 'channel', order: 2 });
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toBe(0);
    expect(second()).toEqual(['General', 'Work']);

    // A caller after the last one left starts a fresh query.
    const third = createRoot(() => liveShared(db, 'names', counting, ['none']));
    expect(third()).toEqual(['none']);
    await until(() => third().length === 3);
  });

  it('keeps keys and databases apart', async () => {
    db = freshDb();
    await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
    const other = freshDb();
    try {
      const [mine, count, theirs] = createRoot(() => [
        liveShared(db, 'names', names, ['none']),
        liveShared(db, 'count', () => db.channels.count().then((n) => [String(n)]), ['none']),
        liveShared(other, 'names', () => other.channels.toArray().then((rows) => rows.map((r) => r.name)), ['none']),
      ]);
      await until(() => mine()[0] === 'General' && count()[0] === '1' && theirs().length === 0);
    } finally {
      other.close();
    }
  });
});
