import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisDB } from './db';
import { readLaneHead } from './laneHead';
import type { MessageRow } from './schema';
import { freshDb, reopen } from '../testing/db';

const LANE = 'web:default';
let db: IrisDB | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

const row = (n: number, lane = LANE): MessageRow => ({
  message_id: `m${n}`,
  lane,
  chat_id: lane,
  role: n % 2 ? 'user' : 'assistant',
  text: `message ${n}`,
  ts: 1_700_000_000_000 + n * 60_000,
  status: 'final',
});

async function seeded(): Promise<IrisDB> {
  db = freshDb();
  await db.channels.bulkPut([
    { chat_id: 'web:demo', name: 'Demo', kind: 'channel', order: 1 },
    { chat_id: LANE, name: 'General', kind: 'default', order: 0 },
  ]);
  await db.messages.bulkPut([...Array.from({ length: 20 }, (_, i) => row(i + 1)), row(99, 'web:demo')]);
  await db.settings.bulkPut([
    { key: 'token', value: 'a-token' },
    { key: 'gatewayStatus', value: { session: { agent: { name: 'Hermes' } } } },
  ]);
  db.close();
  return db;
}

describe('the lane head read (raw IndexedDB, before Dexie)', () => {
  it('reads the newest messages of the lane, oldest first, with its channel and the gateway status', async () => {
    const { name } = await seeded();
    const head = await readLaneHead(LANE, 12, name);
    expect(head?.lane).toBe(LANE);
    expect(head?.channel?.name).toBe('General');
    expect(head?.messages.map((m) => m.text)).toEqual(Array.from({ length: 12 }, (_, i) => `message ${i + 9}`));
    expect(head?.gatewayStatus).toEqual({ session: { agent: { name: 'Hermes' } } });
  });

  it('reads each shown reply’s tool cards and beats, for its turn line', async () => {
    db = freshDb();
    await db.messages.bulkPut([
      { ...row(1), role: 'assistant', turn: 't1' },
      { ...row(2), role: 'assistant', turn: 't2' },
      { ...row(3), role: 'assistant', turn: 'old' },
    ]);
    const activity = (id: string, turn: string, kind: 'tool' | 'commentary') => ({
      id,
      lane: LANE,
      turn,
      kind,
      ts: 1,
      order: 0,
      ...(kind === 'tool' ? { name: 'web_search', state: 'ok' as const, duration: 0.5, output: 'x'.repeat(1000) } : {}),
    });
    await db.activity.bulkPut([
      activity('t1:tool:0', 't1', 'tool'),
      activity('t1:tool:1', 't1', 'tool'),
      activity('t1:commentary:m1:a', 't1', 'commentary'),
      activity('t2:commentary:m2:a', 't2', 'commentary'),
      activity('old:tool:0', 'old', 'tool'),
    ]);
    db.close();
    const head = await readLaneHead(LANE, 2, db.name);
    // Only the turns of the rows read (the two newest); a turn with no activity has no entry.
    expect(head?.messages.map((m) => m.turn)).toEqual(['t2', 'old']);
    const tool = { kind: 'tool', state: 'ok', duration: 0.5 };
    expect(head?.activity).toEqual({ t2: [{ kind: 'commentary' }], old: [tool] });
    const all = await readLaneHead(LANE, 3, db.name);
    expect(all?.activity?.t1).toEqual([{ kind: 'commentary' }, tool, tool]); // in key order
  });

  it('reads the pixel size of the shown messages’ pictures and videos, for their boxes', async () => {
    db = freshDb();
    const ref = (id: string, kind: 'image' | 'video' | 'document') => ({
      media_id: id,
      kind,
      mime: { image: 'image/png', video: 'video/mp4', document: 'application/pdf' }[kind],
      size: 1,
      filename: id,
    });
    await db.messages.bulkPut([
      { ...row(1), media: [ref('pic', 'image'), ref('doc', 'document')] },
      { ...row(2), media: [ref('clip', 'video'), ref('unknown', 'image'), ref('absent', 'image')] },
    ]);
    await db.media.bulkPut([
      { ...ref('pic', 'image'), state: 'ready', lastUsed: 0, width: 640, height: 480 },
      { ...ref('doc', 'document'), state: 'ready', lastUsed: 0 },
      { ...ref('clip', 'video'), state: 'remote', lastUsed: 0, width: 1920, height: 1080 },
      { ...ref('unknown', 'image'), state: 'remote', lastUsed: 0 },
    ]);
    db.close();
    const head = await readLaneHead(LANE, 12, db.name);
    // Documents have no box to size; a picture with no row yet is drawn at the unknown size.
    expect(head?.media).toEqual({
      pic: { width: 640, height: 480 },
      clip: { width: 1920, height: 1080 },
      unknown: { width: undefined, height: undefined },
    });
  });

  it('reads the questions the lane keeps as cards (settled, the newest twenty), and none of another lane or still open', async () => {
    const { name } = await seeded();
    db = reopen(db!);
    const picker = (n: number, state: 'open' | 'answered' | 'closed', lane = LANE) => ({
      picker_id: `p${n}`,
      lane,
      type: 'picker.confirm' as const,
      payload: { picker_id: `p${n}`, chat_id: lane, title: `Question ${n}?` },
      state,
      ...(state === 'answered' ? { answer: 'yes' } : {}),
      ts: row(n).ts + 1,
    });
    await db.pickers.bulkPut([
      ...Array.from({ length: 22 }, (_, i) => picker(i + 1, i % 2 ? 'answered' : 'closed')),
      picker(30, 'open'),
      picker(31, 'answered', 'web:demo'),
    ]);
    db.close();
    const head = await readLaneHead(LANE, 12, name);
    expect(head?.pickers?.map((p) => p.picker_id)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i + 3}`));
    expect(head?.pickers?.[0]).toMatchObject({ state: 'closed', payload: { title: 'Question 3?' } });
    expect(head?.messages).toHaveLength(12);
  });

  it('still shows the messages when the activity cannot be counted (no turn index there)', async () => {
    const name = `test-raw-${crypto.randomUUID()}`;
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const raw = open.result;
      raw.createObjectStore('messages', { keyPath: 'message_id' }).createIndex('[lane+ts]', ['lane', 'ts']);
      raw.createObjectStore('channels', { keyPath: 'chat_id' });
      raw.createObjectStore('settings', { keyPath: 'key' });
      raw.createObjectStore('activity', { keyPath: 'id' });
    };
    const raw = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)));
    const put = raw
      .transaction('messages', 'readwrite')
      .objectStore('messages')
      .put({ ...row(2), turn: 't2' });
    await new Promise((resolve) => (put.onsuccess = resolve));
    raw.close();
    const head = await readLaneHead(LANE, 12, name);
    expect(head?.messages.map((m) => m.text)).toEqual(['message 2']);
    expect(head?.activity).toBeUndefined();
    indexedDB.deleteDatabase(name);
  });

  it('reads the same rows where getAll takes no direction (a cursor, as in browsers before Chromium 141)', async () => {
    const { name } = await seeded();
    const withOptions = await readLaneHead(LANE, 12, name);
    const proto = IDBIndex.prototype as unknown as Record<string, unknown>;
    const getAllRecords = Object.getOwnPropertyDescriptor(proto, 'getAllRecords');
    expect(getAllRecords).toBeDefined();
    delete proto.getAllRecords;
    try {
      const withCursor = await readLaneHead(LANE, 12, name);
      expect(withCursor?.messages.map((m) => m.text)).toEqual(Array.from({ length: 12 }, (_, i) => `message ${i + 9}`));
      expect(withCursor).toEqual(withOptions);
    } finally {
      Object.defineProperty(proto, 'getAllRecords', getAllRecords!);
    }
  });

  it('reads the same rows where getAll refuses options despite getAllRecords (the cursor, not no head)', async () => {
    const { name } = await seeded();
    const proto = IDBIndex.prototype as unknown as { getAll: (...args: unknown[]) => unknown };
    const getAll = proto.getAll;
    proto.getAll = function (this: IDBIndex, ...args: unknown[]) {
      const [query] = args;
      if (typeof query === 'object' && query !== null && !(query instanceof IDBKeyRange))
        throw new DOMException('The parameter is not a valid key.', 'DataError');
      return getAll.apply(this, args);
    };
    try {
      const head = await readLaneHead(LANE, 12, name);
      expect(head?.messages.map((m) => m.text)).toEqual(Array.from({ length: 12 }, (_, i) => `message ${i + 9}`));
    } finally {
      proto.getAll = getAll;
    }
  });

  it('for the home, reads the default channel once paired, and nothing when not paired', async () => {
    const { name } = await seeded();
    expect((await readLaneHead(undefined, 12, name))?.lane).toBe(LANE);
    const reopened = freshDb();
    db = reopened;
    await reopened.channels.put({ chat_id: LANE, name: 'General', kind: 'default', order: 0 });
    reopened.close();
    expect(await readLaneHead(undefined, 12, reopened.name)).toBeUndefined();
  });

  it('repairs a broken row as the app’s own reads do, and never creates a database that is not there', async () => {
    const { name } = await seeded();
    await db!.open();
    await db!.messages.put({ ...row(30), text: 42 as unknown as string });
    const asTheAppReadsIt = await db!.messages.get('m30');
    db!.close();
    expect(typeof asTheAppReadsIt?.text).toBe('string');
    expect((await readLaneHead(LANE, 1, name))?.messages[0]).toEqual(asTheAppReadsIt);

    const missing = `test-missing-${crypto.randomUUID()}`;
    expect(await readLaneHead(LANE, 12, missing)).toBeUndefined();
    expect((await indexedDB.databases()).some((d) => d.name === missing)).toBe(false);
  });
});
