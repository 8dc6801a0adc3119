import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshDb } from '../testing/db';
import { until } from '../testing/until';
import type { IrisDB } from './db';
import { live, liveOn, liveShared } from './live';
import Dexie from 'dexie';
import { holdLiveReads, liveReadsSettled, markHeldWrite, readsInFlight } from './liveReads';

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

describe('held live reads (the catch-up)', () => {
  /** A live query of the channels' names that counts its reads. */
  function countedNames() {
    const counter = { runs: 0 };
    const value = createRoot(() =>
      live(() => {
        counter.runs++;
        return names();
      }, ['none']),
    );
    return { value, counter };
  }

  /** Resolves once Dexie has told the live queries of the next committed write. */
  function nextChange(): Promise<void> {
    return new Promise((resolve) => {
      const told = () => {
        Dexie.on('storagemutated').unsubscribe(told);
        // The live queries told before this listener have started (or skipped) their read by the next task.
        setTimeout(resolve, 0);
      };
      Dexie.on('storagemutated', told);
    });
  }

  /** A write as the catch-up's: marked as the holder's inside its transaction. */
  const heldPut = (chat_id: string, order: number) =>
    db.transaction('rw', db.channels, async () => {
      await db.channels.put({ chat_id, name: chat_id.toUpperCase(), kind: 'channel', order });
      markHeldWrite();
    });

  /** A fresh database with channel A, a counted query showing it, then a hold. */
  async function heldOverChannelA() {
    db = freshDb();
    await db.channels.put({ chat_id: 'a', name: 'A', kind: 'default', order: 0 });
    const { value, counter } = countedNames();
    await until(() => value()[0] === 'A');
    return { value, counter, hold: holdLiveReads(60_000) };
  }

  it("keeps a query's result over the holder's writes until a wake, and reads once more at the release", async () => {
    const { value, counter, hold } = await heldOverChannelA();
    try {
      for (const [n, id] of ['b', 'c', 'd'].entries()) {
        const told = nextChange();
        await heldPut(id, n + 1);
        await told;
        await liveReadsSettled(1_000);
      }
      // Three writes to what it read, no read: the screen still shows what it had.
      expect(value()).toEqual(['A']);
      const runs = counter.runs;
      hold.wake();
      await until(() => value().length === 4);
      expect(counter.runs).toBe(runs + 1);
      const told = nextChange();
      await heldPut('e', 9);
      await told;
      await liveReadsSettled(1_000);
      expect(value()).toHaveLength(4);
    } finally {
      hold.release();
    }
    await until(() => value().length === 5);
    // Released, it follows every write again.
    await db.channels.put({ chat_id: 'f', name: 'F', kind: 'channel', order: 10 });
    await until(() => value().length === 6);
  });

  it('reads a write it is told of only after the wake (Dexie tells its queries in a task of their own)', async () => {
    const { value, counter, hold } = await heldOverChannelA();
    try {
      const told = nextChange();
      await db.transaction('rw', db.channels, async () => {
        await db.channels.put({ chat_id: 'b', name: 'B', kind: 'channel', order: 1 });
        markHeldWrite();
        // Before the commit, so the query hears of this write after the wake: as the catch-up's first chunk.
        hold.wake();
      });
      await told;
      await until(() => value().length === 2, 'the woken write on screen', 1_000);
      // Once: the holder's next write waits for the next wake.
      const runs = counter.runs;
      const again = nextChange();
      await heldPut('c', 2);
      await again;
      await liveReadsSettled(1_000);
      expect(value()).toHaveLength(2);
      expect(counter.runs).toBe(runs);
    } finally {
      hold.release();
    }
    await until(() => value().length === 3);
  });

  it('shows any other write at once while held (the person sends a message during the catch-up)', async () => {
    db = freshDb();
    const { value } = countedNames();
    await until(() => value().length === 0);
    const hold = holdLiveReads(60_000);
    try {
      const told = nextChange();
      await heldPut('b', 1);
      await told;
      await liveReadsSettled(1_000);
      expect(value()).toEqual([]);
      // Not the holder's: the query reads it, and with it what the holder stored before.
      await db.channels.put({ chat_id: 'a', name: 'A', kind: 'default', order: 0 });
      await until(() => value().length === 2);
    } finally {
      hold.release();
    }
  });

  it('ends a hold that is neither woken nor released (a holder that failed must not freeze the screen)', async () => {
    db = freshDb();
    const { value } = countedNames();
    await until(() => value().length === 0);
    holdLiveReads(100);
    const told = nextChange();
    await heldPut('b', 1);
    await told;
    await until(() => value().length === 1);
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
