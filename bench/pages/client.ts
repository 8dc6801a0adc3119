// The app's client (src/client: connection, sync, transfers, the store) in a page without the UI,
// for the media benchmark: `client.pull` is what the media UI calls to download an attachment.
import { createClient } from '../../src/client';
import { IrisDB } from '../../src/store/db';

export interface ClientPageApi {
  /** Pairs (stores the gateway and token, connects) and resolves once online and synced. */
  pair(url: string, token: string): Promise<void>;
  /** Whether the app knows the media row (from the message that carried it). */
  knows(mediaId: string): Promise<boolean>;
  /** client.pull, timed from the call until the bytes are stored and the row is ready (ms). */
  pull(mediaId: string): Promise<{ ms: number; bytes: number; start: number; end: number }>;
}

const db = new IrisDB();
const client = createClient({ db });

const api: ClientPageApi = {
  async pair(url, token) {
    await client.pair(url, token);
    for (;;) {
      if (client.session()?.isSynced) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  },
  async knows(mediaId) {
    return (await db.media.get(mediaId)) !== undefined;
  },
  async pull(mediaId) {
    const start = performance.now();
    await client.pull(mediaId);
    const end = performance.now();
    const stored = await db.mediaBlobs.get(mediaId);
    const row = await db.media.get(mediaId);
    if (!stored || row?.state !== 'ready') throw new Error('client.pull resolved but the file is not stored');
    return { ms: end - start, bytes: stored.blob.size, start, end };
  },
};
(window as unknown as { bench: ClientPageApi }).bench = api;
