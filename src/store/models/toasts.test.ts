import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../test-support';
import { addToast, dismissToast, pruneToasts, recentToasts } from './toasts';

describe('toasts model', () => {
  it('dedupes the same toast, keeps the newest ones, dismisses', async () => {
    const db = freshDb();
    const t = { kind: 'cron', title: 'Daily', body: 'done', ts: 100 };
    const id = await addToast(db, t);
    expect(await addToast(db, t)).toBe(id);
    expect(await addToast(db, { ...t, ts: 102 }, false)).toBe(id);
    expect(await addToast(db, { ...t, ts: 101 })).not.toBe(id);
    for (let i = 0; i < 5; i++) await addToast(db, { ...t, title: `n${i}`, ts: 200 + i });
    expect((await recentToasts(db, 2)).map((x) => x.title)).toEqual(['n3', 'n4']);
    expect(await pruneToasts(db, 3)).toBe(4);
    expect((await recentToasts(db, 10)).map((x) => x.title)).toEqual(['n2', 'n3', 'n4']);
    const [first] = await recentToasts(db, 10);
    await dismissToast(db, first.id!);
    expect(await db.toasts.count()).toBe(2);
    db.close();
  });
});
