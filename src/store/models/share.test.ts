import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../testing/db';
import { getDraft, setDraft } from './settings';
import { getPendingShare, PENDING_SHARE_KEY, takeShareIntoDraft, type PendingShare } from './share';

const share: PendingShare = { title: 'T', text: 'shared words', url: '', files: [], ts: 1 };

describe('share model', () => {
  it('puts the shared text after what was typed in the lane, and the share is done', async () => {
    const db = freshDb();
    expect(await getPendingShare(db)).toBeUndefined();
    await db.settings.put({ key: PENDING_SHARE_KEY, value: share });
    expect(await getPendingShare(db)).toEqual(share);
    await setDraft(db, 'A', 'typed before');
    await takeShareIntoDraft(db, 'A', 'shared words');
    expect(await getDraft(db, 'A')).toBe('typed before\nshared words');
    expect(await getPendingShare(db)).toBeUndefined();
    await takeShareIntoDraft(db, 'B', 'into an empty one');
    expect(await getDraft(db, 'B')).toBe('into an empty one');
    db.close();
  });
});
