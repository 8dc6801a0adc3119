import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../testing/db';
import type { IrisDB } from '../store/db';
import type { MediaRow } from '../store/schema';
import { MediaPuller, downloadsByItself, type PullClient } from './puller';
import { setAutoDownload, setCacheCap } from '../store/models/mediaSettings';

const MiB = 1024 * 1024;

function fakeClient(db: IrisDB, options: { leader?: boolean; fail?: Set<string> } = {}) {
  const order: string[] = [];
  let state = 'online';
  const client: PullClient & { order: string[]; setState(s: string): void } = {
    order,
    setState: (s) => (state = s),
    state: () => state,
    isLeader: () => options.leader ?? true,
    async pull(id) {
      order.push(id);
      if (options.fail?.has(id)) {
        await db.media.update(id, { state: 'failed', error: 'gone' });
        throw new Error('gone');
      }
      const row = (await db.media.get(id))!;
      await db.mediaBlobs.put({ media_id: id, blob: new Blob([new Uint8Array(row.size)]) });
      await db.media.update(id, { state: 'ready', progress: 1, lastUsed: Date.now() });
    },
  };
  return client;
}

async function offer(db: IrisDB, id: string, kind: MediaRow['kind'], size: number, lastUsed: number): Promise<void> {
  await db.media.put({ media_id: id, kind, mime: 'x/y', size, filename: id, state: 'remote', lastUsed, lane: 'L' });
}

/** A downloaded image in the cache (its bytes stored), last used at `lastUsed`. */
async function cached(db: IrisDB, id: string, size: number, lastUsed: number): Promise<void> {
  await db.media.put({ media_id: id, kind: 'image', mime: 'image/png', size, filename: id, state: 'ready', lastUsed });
  await db.mediaBlobs.put({ media_id: id, blob: new Blob([new Uint8Array(size)]) });
}

async function settle(puller: MediaPuller): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await puller.idle();
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('what downloads by itself', () => {
  it('images and voice up to 5 MiB, when the setting is on', () => {
    const on = { autoDownload: true };
    expect(downloadsByItself({ kind: 'image', size: 5 * MiB }, on)).toBe(true);
    expect(downloadsByItself({ kind: 'voice', size: 100 }, on)).toBe(true);
    expect(downloadsByItself({ kind: 'image', size: 5 * MiB + 1 }, on)).toBe(false);
    expect(downloadsByItself({ kind: 'video', size: 100 }, on)).toBe(false);
    expect(downloadsByItself({ kind: 'document', size: 100 }, on)).toBe(false);
    expect(downloadsByItself({ kind: 'audio', size: 100 }, on)).toBe(false);
    expect(downloadsByItself({ kind: 'image', size: 100 }, { autoDownload: false })).toBe(false);
  });
});

describe('the background puller', () => {
  it('pulls one at a time: asked-for first, then on screen, then the rest newest first; large and other kinds wait for a tap', async () => {
    const db = freshDb();
    await offer(db, 'old-image', 'image', 10, 1);
    await offer(db, 'new-voice', 'voice', 10, 3);
    await offer(db, 'visible-image', 'image', 10, 2);
    await offer(db, 'big-image', 'image', 6 * MiB, 4);
    await offer(db, 'doc', 'document', 10, 5);
    const client = fakeClient(db);
    client.setState('offline');
    const puller = new MediaPuller(db, client);
    puller.setVisible('visible-image', true);
    puller.request('doc');
    await settle(puller);
    expect(client.order).toEqual([]); // offline: nothing
    client.setState('online');
    puller.kick();
    await settle(puller);
    expect(client.order).toEqual(['doc', 'visible-image', 'new-voice', 'old-image']);
    expect((await db.media.get('big-image'))!.state).toBe('remote');
    puller.request('big-image');
    await settle(puller);
    expect(client.order.at(-1)).toBe('big-image');
  });

  it('a follower tab pulls only what is asked for or on screen', async () => {
    const db = freshDb();
    await offer(db, 'a', 'image', 10, 1);
    await offer(db, 'b', 'image', 10, 2);
    const client = fakeClient(db, { leader: false });
    const puller = new MediaPuller(db, client);
    puller.kick();
    await settle(puller);
    expect(client.order).toEqual([]);
    puller.setVisible('b', true);
    await settle(puller);
    expect(client.order).toEqual(['b']);
  });

  it('with auto-download off, only taps pull; a failed pull is not retried by itself', async () => {
    const db = freshDb();
    await setAutoDownload(db, false);
    await offer(db, 'a', 'image', 10, 1);
    await offer(db, 'b', 'image', 10, 2);
    const client = fakeClient(db, { fail: new Set(['b']) });
    const puller = new MediaPuller(db, client);
    puller.kick();
    await settle(puller);
    expect(client.order).toEqual([]);
    puller.request('b');
    await settle(puller);
    expect(client.order).toEqual(['b']);
    puller.kick();
    await settle(puller);
    expect(client.order).toEqual(['b']);
    expect((await db.media.get('b'))!.state).toBe('failed');
  });

  it('after a download the cache cap evicts the least recently used, never the new file', async () => {
    const db = freshDb();
    await setCacheCap(db, 2 * MiB);
    await cached(db, 'kept', 1.5 * MiB, 1);
    await offer(db, 'fresh', 'image', 1 * MiB, 5);
    const client = fakeClient(db);
    const puller = new MediaPuller(db, client);
    puller.kick();
    await settle(puller);
    expect((await db.media.get('fresh'))!.state).toBe('ready');
    expect((await db.media.get('kept'))!.state).toBe('evicted');
  });
});

describe('the cache cap and what is on screen', () => {
  it('spares a file while it shows, and evicts it once it scrolls away if the cache is still over the cap', async () => {
    const db = freshDb();
    await setCacheCap(db, 2 * MiB);
    await cached(db, 'shown', 1.5 * MiB, 1);
    await offer(db, 'fresh', 'image', 1 * MiB, 5);
    const puller = new MediaPuller(db, fakeClient(db));
    puller.setVisible('shown', true);
    await settle(puller);
    // Over the cap (2.5 MiB), but the older file is on screen: it stays.
    expect((await db.media.get('fresh'))!.state).toBe('ready');
    expect((await db.media.get('shown'))!.state).toBe('ready');

    puller.setVisible('shown', false);
    await puller.trimmed();
    expect((await db.media.get('shown'))!.state).toBe('evicted');
    expect(await db.mediaBlobs.get('shown')).toBeUndefined();
    expect((await db.media.get('fresh'))!.state).toBe('ready');
  });

  it('a file that leaves the screen within the cap is not evicted', async () => {
    const db = freshDb();
    await setCacheCap(db, 4 * MiB);
    await cached(db, 'shown', 1.5 * MiB, 1);
    const puller = new MediaPuller(db, fakeClient(db));
    puller.setVisible('shown', true);
    await settle(puller);
    puller.setVisible('shown', false);
    await puller.trimmed();
    expect((await db.media.get('shown'))!.state).toBe('ready');
  });
});

describe('a pull a reload cut short', () => {
  it('shows as not downloaded again once this tab holds the connection, and is pulled if it downloads by itself', async () => {
    const db = freshDb();
    await db.media.put({
      media_id: 'cut',
      kind: 'document',
      mime: 'application/pdf',
      size: 10,
      filename: 'a.pdf',
      state: 'downloading',
      progress: 0.4,
      lastUsed: 1,
    });
    await db.media.put({
      media_id: 'pic',
      kind: 'image',
      mime: 'image/png',
      size: 10,
      filename: 'p.png',
      state: 'downloading',
      progress: 0.4,
      lastUsed: 2,
    });
    const client = fakeClient(db);
    const puller = new MediaPuller(db, client);
    puller.kick();
    await settle(puller);
    expect(await db.media.get('cut')).toMatchObject({ state: 'remote', progress: 0 });
    expect(client.order).toEqual(['pic']);
  });
});
