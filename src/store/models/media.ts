// Media metadata known to the app (bytes live in mediaBlobs; the media issue fills them in).
import type { MediaRef } from '../../protocol';
import type { IrisDB } from '../db';
import type { MediaBlobRow, MediaRow } from '../schema';
import { laneMessagesWithMedia } from './messages';

/** Attachments waiting in a lane's composer (stored, not yet given to a message), oldest first. */
export async function stagedAttachments(db: IrisDB, lane: string): Promise<MediaRow[]> {
  const rows = await db.media
    .where('lane')
    .equals(lane)
    .filter((r) => r.state === 'local' && r.client_id === undefined)
    .toArray();
  return rows.sort((a, b) => a.lastUsed - b.lastUsed);
}

export async function getMedia(db: IrisDB, mediaId: string): Promise<MediaRow | undefined> {
  return db.media.get(mediaId);
}

/** The stored rows of `mediaIds`, by id (an id with none is absent). */
export async function getMediaRows(db: IrisDB, mediaIds: string[]): Promise<Record<string, MediaRow>> {
  const rows = await db.media.bulkGet(mediaIds);
  return Object.fromEntries(rows.flatMap((row) => (row ? [[row.media_id, row]] : [])));
}

/** The stored bytes of a media item, if this device has them. */
export async function getMediaBlob(db: IrisDB, mediaId: string): Promise<MediaBlobRow | undefined> {
  return db.mediaBlobs.get(mediaId);
}

/** Whether any media is stored for a message (this device's own upload, while its bytes move to the echo). */
export async function hasMessageMedia(db: IrisDB, messageId: string): Promise<boolean> {
  return (await db.media.where('message_id').equals(messageId).count()) > 0;
}

/** The pictures of a lane a viewer can step through: every image with its bytes here, in message order. */
export async function laneImages(db: IrisDB, lane: string): Promise<MediaRow[]> {
  const messages = await laneMessagesWithMedia(db, lane, 'image');
  const ids = messages.flatMap((m) => m.media!.filter((r) => r.kind === 'image').map((r) => r.media_id));
  const rows = await db.media.bulkGet(ids);
  return rows.filter((r): r is MediaRow => r !== undefined && (r.state === 'ready' || r.state === 'local'));
}

/** The media was on screen at `now`: eviction goes least recently used first. */
export async function touchMedia(db: IrisDB, mediaId: string, now: number): Promise<void> {
  await db.media.update(mediaId, { lastUsed: now });
}

/** What playing or showing a file taught about it (its pixel size, its length), kept for next time. */
export async function learnMediaFacts(
  db: IrisDB,
  mediaId: string,
  facts: Partial<Pick<MediaRow, 'width' | 'height' | 'duration'>>,
): Promise<void> {
  await db.media.update(mediaId, facts);
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
