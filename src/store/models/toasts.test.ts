import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import { addToast, dismissToast, pruneToasts, recentToasts, toastLifetime, visibleToasts } from './toasts';

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
    expect((await visibleToasts(db, undefined)).map((x) => x.title)).toEqual(['n4', 'n3']);
    db.close();
  });

  it('a toast that went away, or came by replay, never shows again for the same event', async () => {
    const db = freshDb();
    const t = { kind: 'cron', title: 'Reminder', body: 'stretch', ts: 100 };
    const id = await addToast(db, t);
    await dismissToast(db, id);
    expect(await addToast(db, t)).toBe(id);
    expect(await visibleToasts(db, undefined)).toEqual([]);
    await addToast(db, { ...t, body: 'replayed', ts: 200 }, true, true);
    expect(await visibleToasts(db, undefined)).toEqual([]);
    db.close();
  });

  it('shows at most two; a picker question only while its picker is open and not on screen', async () => {
    const db = freshDb();
    await db.pickers.put({
      picker_id: 'p1',
      lane: 'L',
      type: 'picker.approval',
      payload: { picker_id: 'p1', command: 'ls' },
      state: 'open',
      ts: 1,
    });
    await addToast(db, { kind: 'approval', title: 'Approval needed', body: 'Run ls?', lane: 'L', ts: 10 });
    await addToast(db, { kind: 'cron', title: 'one', body: '', ts: 5 });
    await addToast(db, { kind: 'cron', title: 'two', body: '', ts: 6 });
    expect((await visibleToasts(db, undefined)).map((x) => x.title)).toEqual(['Approval needed', 'two']);
    // The lane with the picker is on screen: its dialog asks, no toast.
    expect((await visibleToasts(db, 'L')).map((x) => x.title)).toEqual(['two', 'one']);
    // Answered (here or elsewhere): the question's toast goes.
    await db.pickers.update('p1', { state: 'answered' });
    expect((await visibleToasts(db, undefined)).map((x) => x.title)).toEqual(['two', 'one']);
    // A notification of that kind with no picker at all (a push-only gateway) still shows.
    await addToast(db, { kind: 'clarify', title: 'A question', body: '', lane: 'M', ts: 11 });
    expect((await visibleToasts(db, undefined)).map((x) => x.title)).toEqual(['A question', 'two']);
    db.close();
  });

  it('news fades sooner than errors; a question stays', () => {
    expect(toastLifetime({ kind: 'cron' })).toBe(5_000);
    expect(toastLifetime({ kind: 'error' })).toBe(8_000);
    expect(toastLifetime({ kind: 'approval' })).toBeUndefined();
  });
});
