import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { MediaRef } from '../../protocol';
import { freshDb } from '../../testing/db';
import { getMedia, messageMedia, recordRemoteMedia } from './media';

const ref: MediaRef = { media_id: 'x', kind: 'image', mime: 'image/png', size: 3, filename: 'x.png' };

describe('media model', () => {
  it('records an offer once and keeps the state of known media', async () => {
    const db = freshDb();
    await recordRemoteMedia(db, ref, { lane: 'A' }, 5);
    expect(await getMedia(db, 'x')).toEqual({ ...ref, lane: 'A', state: 'remote', lastUsed: 5 });
    await db.media.update('x', { state: 'ready' });
    await recordRemoteMedia(db, ref, { lane: 'B', message_id: 'm1' }, 9);
    expect(await getMedia(db, 'x')).toEqual({ ...ref, lane: 'A', message_id: 'm1', state: 'ready', lastUsed: 5 });
    expect((await messageMedia(db, 'm1')).map((m) => m.media_id)).toEqual(['x']);
    db.close();
  });
});
