// Waiting in the service worker for bytes a window is downloading.
import type { IrisDB } from '../../src/store/db';
import type { MediaBlobRow } from '../../src/store/schema';

/** Polls for the bytes of `mediaId` until they are stored or `timeoutMs` passes (then undefined). */
export async function waitForBytes(
  db: IrisDB,
  mediaId: string,
  timeoutMs: number,
  everyMs = 200,
): Promise<MediaBlobRow | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stored = await db.mediaBlobs.get(mediaId);
    if (stored) return stored;
    const row = await db.media.get(mediaId);
    // Gone (deleted message, forgotten gateway): nothing will come.
    if (!row) return undefined;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(everyMs, left)));
  }
}
