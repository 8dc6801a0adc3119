import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../protocol';
import type { Reducer } from '../net/session';
import { applyFrame, applyFrames } from '../store/reducer';
import { freshDb } from '../testing/db';
import { evictingMediaWhenFull } from './quotaReducer';

const full = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/** The store's reducer, refusing its first `refusals` writes as a full disk would. */
function fullDiskReducer(refusals: number): Reducer & { calls: number } {
  const r = {
    calls: 0,
    async apply(db, frame, ctx) {
      if (r.calls++ < refusals) throw full();
      await applyFrame(db, frame, ctx);
    },
    async applyBatch(db, frames, ctx) {
      if (r.calls++ < refusals) throw full();
      await applyFrames(db, frames, ctx);
    },
  } satisfies Reducer & { calls: number };
  return r;
}

const message = (id: string, text: string): ServerFrame =>
  ({ type: 'message', chat_id: 'web:default', payload: { message_id: id, role: 'assistant', text, ts: 1 } }) as ServerFrame;

async function cachePicture(db: ReturnType<typeof freshDb>, id: string): Promise<void> {
  await db.media.put({ media_id: id, kind: 'image', mime: 'image/png', size: 1024, filename: `${id}.png`, state: 'ready', lastUsed: 1, lane: 'web:default', message_id: 'old' });
  await db.mediaBlobs.put({ media_id: id, blob: new Blob([new Uint8Array(1024)]) });
}

describe('storing frames on a full disk', () => {
  it('evicts downloaded media, tells the person, and stores the message', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    const inner = fullDiskReducer(1);
    await evictingMediaWhenFull(inner).apply(db, message('m1', 'kept despite a full disk'), { gateway: 'ws://x' });
    expect((await db.messages.get('m1'))?.text).toBe('kept despite a full disk');
    expect((await db.media.get('pic'))?.state).toBe('evicted');
    expect(await db.mediaBlobs.get('pic')).toBeUndefined();
    expect((await db.toasts.toArray()).map((t) => t.title)).toContain('Storage was full');
    expect(inner.calls).toBe(2);
  });

  it('does the same for a sync batch, cursor included', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    await evictingMediaWhenFull(fullDiskReducer(1)).applyBatch(db, [message('a', 'one'), message('b', 'two')], { gateway: 'ws://x', cursor: 7 });
    expect((await db.messages.bulkGet(['a', 'b'])).map((m) => m?.text)).toEqual(['one', 'two']);
    expect((await db.media.get('pic'))?.state).toBe('evicted');
  });

  it('with no media to evict, the refusal reaches the caller and nothing else is touched', async () => {
    const db = freshDb();
    const inner = fullDiskReducer(5);
    await expect(evictingMediaWhenFull(inner).apply(db, message('m1', 'x'), { gateway: 'ws://x' })).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(inner.calls).toBe(1);
    expect(await db.toasts.count()).toBe(0);
  });

  it('other errors are not retried', async () => {
    const db = freshDb();
    await cachePicture(db, 'pic');
    let calls = 0;
    const broken: Reducer = {
      apply: async () => {
        calls++;
        throw new Error('bad row');
      },
      applyBatch: async () => {},
    };
    await expect(evictingMediaWhenFull(broken).apply(db, message('m1', 'x'), { gateway: 'ws://x' })).rejects.toThrow('bad row');
    expect(calls).toBe(1);
    expect((await db.media.get('pic'))?.state).toBe('ready');
  });
});
