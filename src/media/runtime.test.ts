// The window's media machinery ends with its runtime: a puller left watching a deleted database
// (a test's, after the runtime stopped) would fail on it, again and again.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { IrisClient } from '../client';
import { freshDb } from '../testing/db';
import { until } from '../testing/until';
import type { IrisDB } from '../store/db';
import { startMediaPuller } from './runtime';

/** A connected client that stores every file it is asked to pull, and says which. */
function pullingClient(db: IrisDB): IrisClient & { pulled: string[] } {
  const pulled: string[] = [];
  const client = {
    pulled,
    state: () => 'online',
    isLeader: () => true,
    async pull(id: string) {
      pulled.push(id);
      await db.mediaBlobs.put({ media_id: id, blob: new Blob(['bytes']) });
      await db.media.update(id, { state: 'ready', progress: 1 });
    },
  };
  return client as unknown as IrisClient & { pulled: string[] };
}

async function offerVoice(db: IrisDB, id: string): Promise<void> {
  await db.media.put({
    media_id: id,
    kind: 'voice',
    mime: 'audio/ogg',
    size: 5,
    filename: id,
    state: 'remote',
    lastUsed: 1,
    lane: 'L',
  });
}

describe('the media machinery', () => {
  it('pulls a voice note offered while it runs, and nothing offered or asked for after it stopped', async () => {
    const db = freshDb();
    const client = pullingClient(db);
    const puller = startMediaPuller({ db, client });
    await offerVoice(db, 'before');
    await until(() => client.pulled.includes('before'), 'the voice note offered while it ran to be pulled');

    puller.stop();
    await offerVoice(db, 'after');
    puller.request('after');
    puller.kick();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.pulled).toEqual(['before']);
    expect((await db.media.get('after'))?.state).toBe('remote');
    await db.delete();
  });
});
