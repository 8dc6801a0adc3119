import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import { forgetCursor, getCursor, setCursor } from './sync';

describe('sync model', () => {
  it('keeps a cursor per gateway that never moves backwards', async () => {
    const db = freshDb();
    expect(await getCursor(db, 'ws://a')).toBe(0);
    expect(await setCursor(db, 'ws://a', 10)).toBe(10);
    expect(await setCursor(db, 'ws://a', 4)).toBe(10);
    expect(await setCursor(db, 'ws://a', 1.5)).toBe(10);
    expect(await setCursor(db, 'ws://a', -1)).toBe(10);
    expect(await setCursor(db, 'ws://b', 2)).toBe(2);
    expect(await getCursor(db, 'ws://a')).toBe(10);
    await forgetCursor(db, 'ws://a');
    expect(await getCursor(db, 'ws://a')).toBe(0);
    expect(await getCursor(db, 'ws://b')).toBe(2);
    db.close();
  });
});
