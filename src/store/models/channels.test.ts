import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../schema';
import { freshDb } from '../../testing/db';
import {
  buildTree,
  channelsInOrder,
  defaultChannel,
  directory,
  laneScope,
  listedDirectory,
  threadsOf,
} from './channels';
import { setSetting } from './settings';

const rows: ChannelRow[] = [
  { chat_id: 'work', name: 'Work', kind: 'channel', order: 0 },
  { chat_id: 'home', name: 'Home', kind: 'default', is_default: true, order: 1 },
  { chat_id: 'fav', name: 'Fav', kind: 'channel', favorite: true, order: 2 },
  { chat_id: 'old', name: 'Old', kind: 'channel', archived: true, order: 3 },
  { chat_id: 't1', name: 'T1', kind: 'thread', parent_chat_id: 'work', order: 4 },
  { chat_id: 't2', name: 'T2', kind: 'thread', parent_chat_id: 'work', favorite: true, order: 5 },
  { chat_id: 't3', name: 'T3', kind: 'thread', parent_chat_id: 'old', order: 6 },
  { chat_id: 't4', name: 'T4', kind: 'thread', parent_chat_id: 'gone', order: 7 },
  { chat_id: 't5', name: 'T5', kind: 'thread', parent_chat_id: 'work', archived: true, order: 8 },
];

const shape = (tree: ReturnType<typeof buildTree>) =>
  tree.map((n) => [n.channel.chat_id, n.threads.map((t) => t.chat_id)]);

describe('channels model', () => {
  it('listedDirectory: the active channels in order, and whether the gateway has listed them', async () => {
    const db = freshDb();
    expect(await listedDirectory(db)).toEqual({ listed: false, channels: [] });
    await db.channels.bulkPut([rows[3]!, rows[0]!]);
    await setSetting(db, 'directoryListed', true);
    expect(await listedDirectory(db)).toEqual({ listed: true, channels: [rows[0]] });
    db.close();
  });

  it('orders default first, then favorites, nests threads, hides archived ones', () => {
    expect(shape(buildTree(rows))).toEqual([
      ['home', []],
      ['fav', []],
      ['work', ['t2', 't1']],
      ['t4', []],
    ]);
  });

  it('shows archived entries and their threads on request', () => {
    expect(shape(buildTree(rows, { archived: true }))).toEqual([
      ['home', []],
      ['fav', []],
      ['work', ['t2', 't1', 't5']],
      ['old', ['t3']],
      ['t4', []],
    ]);
  });

  it('reads the tree, the default channel and a lane scope from the DB', async () => {
    const db = freshDb();
    await db.channels.bulkPut(rows);
    expect(shape(await directory(db))[0]).toEqual(['home', []]);
    expect((await defaultChannel(db))?.chat_id).toBe('home');
    expect(await laneScope(db, 't1')).toEqual({ lane: 't1', chat_id: 'work', thread_id: 't1' });
    expect(await laneScope(db, 'work')).toEqual({ lane: 'work', chat_id: 'work' });
    expect(await laneScope(db, 'unknown')).toEqual({ lane: 'unknown', chat_id: 'unknown' });
    await db.channels.update('home', { archived: true });
    expect((await defaultChannel(db))?.chat_id).toBe('work');
    db.close();
  });

  it('lists every entry in the gateway order, archived ones too', async () => {
    const db = freshDb();
    await db.channels.bulkPut([...rows].reverse());
    expect((await channelsInOrder(db)).map((r) => r.chat_id)).toEqual(
      rows
        .slice()
        .sort((a, b) => a.order - b.order)
        .map((r) => r.chat_id),
    );
    db.close();
  });

  it('lists the threads of one channel as its list does: favorites first, archived ones left out', async () => {
    const db = freshDb();
    await db.channels.bulkPut(rows);
    expect((await threadsOf(db, 'work')).map((r) => r.chat_id)).toEqual(['t2', 't1']);
    expect(await threadsOf(db, 'home')).toEqual([]);
    db.close();
  });
});
