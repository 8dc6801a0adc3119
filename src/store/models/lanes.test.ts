import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import { clearAutoThread, getLane, markRead, openTurn, patchLane, storedLane } from './lanes';

describe('lanes model', () => {
  it('a missing lane reads as an empty one without being stored', async () => {
    const db = freshDb();
    expect(await getLane(db, 'A')).toEqual({ lane: 'A', readTs: 0, busy: false, typing: false, turnSeq: 0 });
    expect(await db.lanes.count()).toBe(0);
    db.close();
  });

  it('moves the read mark forward only', async () => {
    const db = freshDb();
    expect(await markRead(db, 'A', 'm2', 20)).toBe(true);
    expect(await markRead(db, 'A', 'm1', 10)).toBe(false);
    expect(await markRead(db, 'A', 'm2', 20)).toBe(false);
    expect(await getLane(db, 'A')).toMatchObject({ readTs: 20, readMessageId: 'm2' });
    db.close();
  });

  it('opens turns with deterministic ids and reuses the open one', async () => {
    const db = freshDb();
    expect(await openTurn(db, 'A')).toBe('A#1');
    expect(await openTurn(db, 'A')).toBe('A#1');
    await patchLane(db, 'A', (row) => {
      delete row.turn;
      return row;
    });
    expect(await openTurn(db, 'A')).toBe('A#2');
    db.close();
  });

  it('clears the auto-thread hint', async () => {
    const db = freshDb();
    await patchLane(db, 'A', (row) => ({ ...row, autoThread: 't' }));
    await clearAutoThread(db, 'A');
    await clearAutoThread(db, 'B');
    expect((await getLane(db, 'A')).autoThread).toBeUndefined();
    expect(await db.lanes.get('B')).toBeUndefined();
    db.close();
  });

  it('tells a lane with no row yet from a stored one', async () => {
    const db = freshDb();
    expect(await storedLane(db, 'A')).toBeUndefined();
    await markRead(db, 'A', 'm1', 10);
    expect(await storedLane(db, 'A')).toMatchObject({ lane: 'A', readTs: 10 });
    db.close();
  });
});
