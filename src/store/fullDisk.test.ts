import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol';
import type { IrisDB } from './db';
import { applyFrame, applyFrames } from './reducer';
import { freshDb } from '../testing/db';

const full = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/** Makes the DB refuse its first `refusals` transactions over messages with `error` (a full disk by default). */
function refuseMessageWrites(db: IrisDB, refusals: number, error: () => unknown = full): { calls: number } {
  const counter = { calls: 0 };
  const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  db.transaction = ((...args: unknown[]) => {
    const scope = Array.isArray(args[1]) ? args[1] : [args[1]];
    const names = scope.map((t) => (typeof t === 'string' ? t : (t as { name: string }).name));
    if (names.includes('messages') && counter.calls++ < refusals) return Promise.reject(error());
    return transaction(...args);
  }) as typeof db.transaction;
  return counter;
}

const message = (id: string, text: string): ServerFrame =>
  ({
    type: 'message',
    chat_id: 'web:default',
    payload: { message_id: id, role: 'assistant', text, ts: 1 },
  }) as ServerFrame;

async function cachePicture(db: IrisDB, id: string): Promise<void> {
  await db.media.put({
    media_id: id,
    kind: 'image',
    mime: 'image/png',
    size: 1024,
    filename: `${id}.png`,
    state: 'ready',
    lastUsed: 1,
    lane: 'web:default',
    message_id: 'old',
  });
  await db.mediaBlobs.put({ media_id: id, blob: new Blob([new Uint8Array(1024)]) });
}

describe('storing frames on a full disk', () => {
  it('evicts downloaded media, tells the person, and stores the message', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    const writes = refuseMessageWrites(db, 1);
    await applyFrame(db, message('m1', 'kept despite a full disk'), { gateway: 'ws://x' });
    expect((await db.messages.get('m1'))?.text).toBe('kept despite a full disk');
    expect((await db.media.get('pic'))?.state).toBe('evicted');
    expect(await db.mediaBlobs.get('pic')).toBeUndefined();
    expect((await db.toasts.toArray()).map((t) => t.title)).toContain('Storage was full');
    expect(writes.calls).toBe(2);
  });

  it('does the same for a sync batch, cursor included', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    refuseMessageWrites(db, 1);
    await applyFrames(db, [message('a', 'one'), message('b', 'two')], { gateway: 'ws://x', cursor: 7 });
    expect((await db.messages.bulkGet(['a', 'b'])).map((m) => m?.text)).toEqual(['one', 'two']);
    expect((await db.media.get('pic'))?.state).toBe('evicted');
    expect((await db.sync.get('ws://x'))?.cursor).toBe(7);
  });

  it('with no media to evict, the refusal reaches the caller and nothing else is touched', async () => {
    const db = freshDb();
    const writes = refuseMessageWrites(db, 5);
    await expect(applyFrame(db, message('m1', 'x'), { gateway: 'ws://x' })).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    expect(writes.calls).toBe(1);
    expect(await db.toasts.count()).toBe(0);
  });

  it('other errors are not retried', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    const writes = refuseMessageWrites(db, 5, () => new Error('bad row'));
    await expect(applyFrame(db, message('m1', 'x'), { gateway: 'ws://x' })).rejects.toThrow('bad row');
    expect(writes.calls).toBe(1);
    expect((await db.media.get('pic'))?.state).toBe('ready');
  });
});
