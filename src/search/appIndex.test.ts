// The app's search index: what a search finds, and that a stopped index follows the database no more.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { IrisDB } from '../store/db';
import type { MessageRow } from '../store/schema';
import { freshDb } from '../testing/db';
import { until } from '../testing/until';
import { startLocalIndex, type LocalSearch } from './appIndex';

const dbs: IrisDB[] = [];
const indexes: LocalSearch[] = [];
afterEach(async () => {
  for (const index of indexes.splice(0)) index.stop();
  for (const db of dbs.splice(0)) await db.delete();
});

function start(db: IrisDB): LocalSearch {
  const index = startLocalIndex({ db });
  indexes.push(index);
  return index;
}

const row = (message_id: string, text: string, ts: number): MessageRow => ({
  message_id,
  lane: 'general',
  chat_id: 'general',
  role: 'user',
  text,
  ts,
  status: 'final',
});

const found = async (index: LocalSearch, query: string) => (await index.search(query)).map((r) => r.row.message_id);

describe('startLocalIndex', () => {
  it('after stop() indexes nothing more, while an index still running finds the new message', async () => {
    const db = freshDb();
    dbs.push(db);
    await db.messages.put(row('a', 'alpha', 1));
    const stopped = start(db);
    const running = start(db);
    await Promise.all([stopped.ready, running.ready]);
    expect(await found(stopped, 'alpha')).toEqual(['a']);

    stopped.stop();
    await db.messages.put(row('b', 'bravo', 2));
    await until(async () => (await found(running, 'bravo')).length > 0, 'the running index to find the new message');
    expect(await found(stopped, 'bravo')).toEqual([]);
    // What it had indexed before it stopped still reads back.
    expect(await found(stopped, 'alpha')).toEqual(['a']);
  });

  it('stopped before its first build finished, never says it is built', async () => {
    const db = freshDb();
    dbs.push(db);
    await db.messages.bulkPut([row('a', 'alpha', 1), row('b', 'bravo', 2)]);
    const index = start(db);
    // The build is waiting on its first read: stop() lands before any chunk is indexed.
    index.stop();
    await index.ready;
    expect(index.built()).toBe(false);
    expect(await found(index, 'alpha')).toEqual([]);
    const whole = start(db);
    await whole.ready;
    expect(whole.built()).toBe(true);
  });
});
