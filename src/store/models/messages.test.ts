import 'fake-indexeddb/auto';
import Dexie, { liveQuery } from 'dexie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IrisDB, SCHEMA_V1 } from '../db';
import type { MessageRow } from '../schema';
import { freshDb } from '../../testing/db';
import { markRead, setFollowing } from './lanes';
import {
  addPending,
  getMessage,
  getMessages,
  laneGlance,
  newestAgentTs,
  newestHead,
  laneMessageIds,
  laneMessages,
  markFailed,
  markPending,
  newestMessage,
  newestServerMessage,
  oldestServerMessage,
  unreadCount,
} from './messages';

let db: IrisDB;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

const msg = (id: string, lane: string, ts: number, role: 'user' | 'assistant' = 'assistant') =>
  db.messages.put({
    message_id: id,
    lane,
    chat_id: lane,
    role,
    text: id,
    ts,
    status: role === 'user' ? 'sent' : 'final',
  });

describe('messages model', () => {
  it('laneMessages gives the newest `limit` of one lane, oldest first', async () => {
    for (let i = 1; i <= 5; i++) await msg(`a${i}`, 'A', i * 10);
    await msg('b1', 'B', 25);
    await msg('ab', 'AB', 1); // a lane whose name extends another's must not leak in
    expect((await laneMessages(db, 'A')).map((m) => m.message_id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect((await laneMessages(db, 'A', 2)).map((m) => m.message_id)).toEqual(['a4', 'a5']);
    expect((await newestMessage(db, 'B'))?.message_id).toBe('b1');
    expect(await laneMessages(db, 'none')).toEqual([]);
  });

  it('newestAgentTs is when the agent last wrote in the lane, not the person, nor in another lane', async () => {
    expect(await newestAgentTs(db, 'A')).toBeUndefined();
    await msg('u1', 'A', 10, 'user');
    expect(await newestAgentTs(db, 'A')).toBeUndefined();
    await msg('a1', 'A', 20);
    await msg('a2', 'A', 30);
    await msg('u2', 'A', 40, 'user');
    await msg('b1', 'AB', 50); // a lane whose name extends this one's
    await msg('b2', 'B', 60);
    expect(await newestAgentTs(db, 'A')).toBe(30);
    expect(await newestAgentTs(db, 'B')).toBe(60);
  });

  it('addPending shows the message at once, under local:<client_id>, and never twice', async () => {
    const row = await addPending(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'hi', ts: 7, reply_to: 'm0' });
    expect(row).toEqual({
      message_id: 'local:c1',
      lane: 'A',
      chat_id: 'A',
      role: 'user',
      text: 'hi',
      ts: 7,
      status: 'pending',
      client_id: 'c1',
      reply_to: 'm0',
    });
    await addPending(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'hi again', ts: 8 });
    expect(await db.messages.count()).toBe(1);
    expect((await getMessage(db, 'local:c1'))?.text).toBe('hi');

    // Once the echo holds the client_id, a late addPending (another tab) adds nothing.
    await db.messages.delete('local:c1');
    await db.messages.put({
      message_id: 's1',
      lane: 'A',
      chat_id: 'A',
      role: 'user',
      text: 'hi',
      ts: 7,
      status: 'sent',
      client_id: 'c1',
    });
    expect((await addPending(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'hi' })).message_id).toBe('s1');
    expect(await db.messages.count()).toBe(1);
    expect((await newestServerMessage(db, 'A'))?.message_id).toBe('s1');
  });

  it('markFailed and markPending change only a local bubble', async () => {
    await addPending(db, { client_id: 'c1', lane: 'A', chat_id: 'A', text: 'hi', ts: 1 });
    expect(await markFailed(db, 'c1', 'The gateway is busy.')).toBe(true);
    expect(await getMessage(db, 'local:c1')).toMatchObject({ status: 'failed', error: 'The gateway is busy.' });
    expect(await markPending(db, 'c1')).toBe(true);
    expect((await getMessage(db, 'local:c1'))?.error).toBeUndefined();
    expect((await getMessage(db, 'local:c1'))?.status).toBe('pending');
    expect(await markFailed(db, 'nope', 'x')).toBe(false);
  });

  it('unreadCount counts messages after the read mark not written by the user', async () => {
    await msg('a1', 'A', 10);
    await msg('u1', 'A', 20, 'user');
    await msg('a2', 'A', 30);
    await msg('x', 'B', 40);
    expect(await unreadCount(db, 'A')).toBe(2);
    await markRead(db, 'A', 'a1', 10);
    expect(await unreadCount(db, 'A')).toBe(1);
    await markRead(db, 'A', 'a2', 30);
    expect(await unreadCount(db, 'A')).toBe(0);
    expect(await unreadCount(db, 'B')).toBe(1);
  });

  it('unreadCount reads keys only: its requests do not grow with the unread messages', async () => {
    await db.messages.bulkPut(
      Array.from({ length: 300 }, (_, i) => ({
        message_id: `m${i}`,
        lane: 'A',
        chat_id: 'A',
        role: i % 3 === 0 ? ('user' as const) : ('assistant' as const),
        text: `message ${i}`,
        ts: i + 1,
        status: i % 3 === 0 ? ('sent' as const) : ('final' as const),
      })),
    );
    const storeGet = vi.spyOn(IDBObjectStore.prototype, 'get');
    const storeGetAll = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    const indexGetAll = vi.spyOn(IDBIndex.prototype, 'getAll');
    const cursors = vi.spyOn(IDBIndex.prototype, 'openCursor');
    try {
      expect(await unreadCount(db, 'A')).toBe(200);
      // The lane's row only: no message row is read, one by one or all at once.
      expect(storeGet.mock.calls.length).toBeLessThanOrEqual(1);
      expect(storeGetAll).not.toHaveBeenCalled();
      expect(indexGetAll).not.toHaveBeenCalled();
      expect(cursors).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('a database of the first schema version opens with its messages, and counts them unread', async () => {
    const name = `iris-v1-${Math.random()}`;
    const first = new Dexie(name);
    first.version(1).stores(SCHEMA_V1);
    await first.table('messages').bulkPut([
      { message_id: 'a1', lane: 'A', chat_id: 'A', role: 'assistant', text: 'hi', ts: 10, status: 'final' },
      { message_id: 'u1', lane: 'A', chat_id: 'A', role: 'user', text: 'hello', ts: 20, status: 'sent' },
      { message_id: 'a2', lane: 'A', chat_id: 'A', role: 'assistant', text: 'yes?', ts: 30, status: 'final' },
    ]);
    first.close();
    const upgraded = new IrisDB(name);
    try {
      expect((await laneMessages(upgraded, 'A')).map((m) => m.message_id)).toEqual(['a1', 'u1', 'a2']);
      expect(await unreadCount(upgraded, 'A')).toBe(2);
    } finally {
      upgraded.close();
      await Dexie.delete(name);
    }
  });

  it('unreadCount leaves out a reply still streaming, and counts it once it ends', async () => {
    await msg('a1', 'A', 10);
    await markRead(db, 'A', 'a1', 10);
    await db.messages.put({
      message_id: 'live',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: 'half',
      ts: 20,
      status: 'streaming',
    });
    expect(await unreadCount(db, 'A')).toBe(0);
    await db.messages.update('live', { status: 'final' });
    expect(await unreadCount(db, 'A')).toBe(1);
  });

  it("a live unread count is not read again while a streaming reply's text grows, and is when it ends", async () => {
    await msg('a1', 'A', 10);
    await db.messages.put({
      message_id: 'live',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: '',
      ts: 20,
      status: 'streaming',
    });
    const counts: number[] = [];
    let runs = 0;
    const subscription = liveQuery(() => {
      runs++;
      return unreadCount(db, 'A');
    }).subscribe((n) => counts.push(n));
    try {
      await vi.waitFor(() => expect(counts).toEqual([1]));
      // As the reducer writes a streamed update (modify: no index key changes).
      for (const text of ['one', 'one two', 'one two three'])
        await db.messages
          .where(':id')
          .equals('live')
          .modify((m) => void (m.text = text));
      await msg('a2', 'A', 15); // a change the count follows, after those writes
      await vi.waitFor(() => expect(counts.at(-1)).toBe(2));
      expect(runs).toBe(2);
      await db.messages.update('live', { status: 'final' });
      await vi.waitFor(() => expect(counts.at(-1)).toBe(3));
    } finally {
      subscription.unsubscribe();
    }
  });

  it('a reply the reader followed while it streamed is not unread when it ends; one they left is', async () => {
    await msg('a1', 'A', 10);
    await markRead(db, 'A', 'a1', 10);
    await db.messages.put({
      message_id: 'live',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: 'half',
      ts: 20,
      status: 'streaming',
    });
    await setFollowing(db, 'A', 'live');
    await db.messages.update('live', { status: 'final', ts: 25 });
    expect(await unreadCount(db, 'A')).toBe(0);
    // Marked read: the mark passes it and the lane follows nothing any more.
    await markRead(db, 'A', 'live', 25);
    expect((await db.lanes.get('A'))?.following).toBeUndefined();
    // Left while it streamed: counted once it ends.
    await db.messages.put({
      message_id: 'next',
      lane: 'A',
      chat_id: 'A',
      role: 'assistant',
      text: 'half',
      ts: 30,
      status: 'streaming',
    });
    await setFollowing(db, 'A', 'next');
    await setFollowing(db, 'A', undefined);
    await db.messages.update('next', { status: 'final' });
    expect(await unreadCount(db, 'A')).toBe(1);
  });

  it("lists a lane's ids in time order, and its oldest message from the gateway", async () => {
    await addPending(db, { client_id: 'c0', lane: 'A', chat_id: 'A', text: 'early local', ts: 1 });
    await msg('a2', 'A', 20);
    await msg('a1', 'A', 10);
    await msg('ab', 'AB', 5);
    expect(await laneMessageIds(db, 'A')).toEqual(['local:c0', 'a1', 'a2']);
    expect((await oldestServerMessage(db, 'A'))?.message_id).toBe('a1');
    expect(await oldestServerMessage(db, 'none')).toBeUndefined();
    expect((await getMessages(db, ['a2', 'x', 'a1'])).map((m) => m?.message_id)).toEqual(['a2', undefined, 'a1']);
  });

  it('glances at a lane: its unread count and newest message together', async () => {
    await msg('a1', 'A', 10);
    await msg('a2', 'A', 20);
    await markRead(db, 'A', 'a1', 10);
    const glance = await laneGlance(db, 'A', 2000);
    expect(glance.unread).toBe(1);
    expect(glance.newest?.message_id).toBe('a2');
    expect(await laneGlance(db, 'none', 2000)).toEqual({ unread: 0, newest: undefined });
  });

  /** Runs `query` live; `results` gets each result, `runs` counts how often it was read. */
  function watch<T>(query: () => Promise<T>) {
    const watched = { results: [] as T[], runs: 0, stop: () => {} };
    const subscription = liveQuery(() => {
      watched.runs++;
      return query();
    }).subscribe((value) => watched.results.push(value));
    watched.stop = () => subscription.unsubscribe();
    return watched;
  }
  const grow = (id: string, text: string) =>
    db.messages
      .where(':id')
      .equals(id)
      .modify((m) => void (m.text = text));
  const streamingRow = (id: string, ts: number): MessageRow => ({
    message_id: id,
    lane: 'A',
    chat_id: 'A',
    role: 'assistant',
    text: '',
    ts,
    status: 'streaming',
  });

  it("the newest message's head, live: a streaming reply is read once, not on each write of its text", async () => {
    await msg('a1', 'A', 10);
    const head = watch(() => newestHead(db, 'A'));
    try {
      await vi.waitFor(() => expect(head.results.at(-1)?.message_id).toBe('a1'));
      await db.messages.put(streamingRow('live', 20));
      await vi.waitFor(() => expect(head.results.at(-1)).toMatchObject({ message_id: 'live', status: 'streaming' }));
      await grow('live', 'one'); // read once more: the row was read in the run before
      await vi.waitFor(() => expect(head.runs).toBe(3));
      const runs = head.runs;
      for (const text of ['one two', 'one two three', 'one two three four']) await grow('live', text);
      await db.messages.update('live', { status: 'final' });
      await vi.waitFor(() => expect(head.results.at(-1)).toMatchObject({ message_id: 'live', status: 'final' }));
      expect(head.runs).toBe(runs + 1); // its stop, not the writes before it
    } finally {
      head.stop();
    }
  });

  it("the channel list's glance reads a streaming reply until its text holds the preview's start, then at its stop", async () => {
    await msg('a1', 'A', 10);
    await db.messages.put(streamingRow('live', 20));
    const glance = watch(() => laneGlance(db, 'A', 10));
    try {
      await vi.waitFor(() => expect(glance.results.at(-1)?.newest?.message_id).toBe('live'));
      await grow('live', 'short');
      await vi.waitFor(() => expect(glance.results.at(-1)?.newest?.text).toBe('short'));
      await grow('live', 'long enough now');
      await vi.waitFor(() => expect(glance.results.at(-1)?.newest?.text).toBe('long enough now'));
      await grow('live', 'long enough now, and more'); // read once more: the row was read in the run before
      await vi.waitFor(() => expect(glance.runs).toBe(4));
      const runs = glance.runs;
      for (const text of ['long enough now, and more!', 'long enough now, and more!!']) await grow('live', text);
      await db.messages.update('live', { status: 'final', text: 'long enough now: done' });
      await vi.waitFor(() => expect(glance.results.at(-1)?.newest?.text).toBe('long enough now: done'));
      expect(glance.runs).toBe(runs + 1);
      expect(glance.results.at(-1)?.unread).toBe(2);
    } finally {
      glance.stop();
    }
  });
});
