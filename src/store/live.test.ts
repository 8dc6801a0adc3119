import 'fake-indexeddb/auto';
import { createRoot } from 'solid-js';
import { afterEach, describe, expect, it } from 'vitest';
import { IrisDB } from './db';
import { live } from './live';

let db: IrisDB;
afterEach(async () => {
  db?.close();
});

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('live', () => {
  it('starts at the initial value, follows writes, and stops with its owner', async () => {
    db = new IrisDB(`live-${crypto.randomUUID()}`);
    let dispose!: () => void;
    const names = createRoot((d) => {
      dispose = d;
      return live(() => db.channels.orderBy('order').toArray().then((rows) => rows.map((r) => r.name)), ['none']);
    });
    expect(names()).toEqual(['none']);
    await until(() => names().length === 0);

    await db.channels.put({ chat_id: 'a', name: 'General', kind: 'default', order: 0 });
    await until(() => names().length === 1);
    expect(names()).toEqual(['General']);

    await db.channels.put({ chat_id: 'b', name: 'Work', kind: 'channel', order: 1 });
    await until(() => names().length === 2);
    expect(names()).toEqual(['General', 'Work']);

    dispose();
    await db.channels.put({ chat_id: 'c', name: 'Late', kind: 'channel', order: 2 });
    await new Promise((r) => setTimeout(r, 50));
    expect(names()).toEqual(['General', 'Work']);
  });

  it('keeps the last value when the query fails', async () => {
    db = new IrisDB(`live-${crypto.randomUUID()}`);
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
});
