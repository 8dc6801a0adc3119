import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { MediaRef } from '../../protocol';
import { freshDb } from '../../testing/db';
import {
  getMedia,
  getMediaBlob,
  hasMessageMedia,
  laneImages,
  learnMediaFacts,
  messageMedia,
  recordRemoteMedia,
  touchMedia,
} from './media';

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

  it('keeps what showing a file taught, and when it was last on screen', async () => {
    const db = freshDb();
    await recordRemoteMedia(db, ref, { lane: 'A' }, 5);
    await learnMediaFacts(db, 'x', { width: 40, height: 30 });
    await touchMedia(db, 'x', 99);
    expect(await getMedia(db, 'x')).toMatchObject({ width: 40, height: 30, lastUsed: 99, state: 'remote' });
    await learnMediaFacts(db, 'gone', { duration: 3 });
    expect(await getMedia(db, 'gone')).toBeUndefined();
    db.close();
  });

  it('lists the pictures of a lane with their bytes here, in message order', async () => {
    const db = freshDb();
    const image = (id: string): MediaRef => ({ ...ref, media_id: id });
    const put = (message_id: string, lane: string, ts: number, media: MediaRef[]) =>
      db.messages.put({ message_id, lane, chat_id: lane, role: 'assistant', text: '', ts, status: 'final', media });
    await put('m2', 'A', 20, [image('late')]);
    await put('m1', 'A', 10, [
      image('early'),
      { ...ref, media_id: 'voice', kind: 'voice', mime: 'audio/webm' },
      image('remote'),
    ]);
    await put('b1', 'B', 15, [image('other')]);
    for (const id of ['late', 'early', 'voice', 'other'])
      await db.media.put({ ...image(id), lane: 'A', state: 'ready', lastUsed: 0 });
    await db.media.put({ ...image('remote'), lane: 'A', state: 'remote', lastUsed: 0 });
    expect((await laneImages(db, 'A')).map((r) => r.media_id)).toEqual(['early', 'late']);
    expect(await hasMessageMedia(db, 'm1')).toBe(false);
    await recordRemoteMedia(db, image('early'), { lane: 'A', message_id: 'm1' }, 1);
    expect(await hasMessageMedia(db, 'm1')).toBe(true);
    expect(await getMediaBlob(db, 'early')).toBeUndefined();
    const blob = new Blob(['png']);
    await db.mediaBlobs.put({ media_id: 'early', blob });
    expect((await getMediaBlob(db, 'early'))?.media_id).toBe('early');
    db.close();
  });
});
