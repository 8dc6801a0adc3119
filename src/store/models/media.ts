// Media metadata known to the app (bytes live in mediaBlobs; the media issue fills them in).
import type { MediaRef } from '../../protocol';
import type { IrisDB } from '../db';
import type { MediaRow } from '../schema';

export async function getMedia(db: IrisDB, mediaId: string): Promise<MediaRow | undefined> {
  return db.media.get(mediaId);
}

export async function messageMedia(db: IrisDB, messageId: string): Promise<MediaRow[]> {
  return db.media.where('message_id').equals(messageId).toArray();
}

/**
 * Record media the gateway offers (state remote) for a lane and message. A row already known keeps
 * its state and bytes; it only gains a lane or message it lacked. Returns the row.
 */
export async function recordRemoteMedia(
  db: IrisDB,
  ref: MediaRef,
  where: { lane: string; message_id?: string },
  now: number,
): Promise<MediaRow> {
  return db.transaction('rw', db.media, async () => {
    const existing = await db.media.get(ref.media_id);
    if (existing) {
      const next = { ...existing };
      if (next.lane === undefined) next.lane = where.lane;
      if (where.message_id !== undefined && next.message_id !== where.message_id) next.message_id = where.message_id;
      if (next.lane !== existing.lane || next.message_id !== existing.message_id) await db.media.put(next);
      return next;
    }
    const row: MediaRow = { ...ref, lane: where.lane, state: 'remote', lastUsed: now };
    if (where.message_id !== undefined) row.message_id = where.message_id;
    await db.media.put(row);
    return row;
  });
}
