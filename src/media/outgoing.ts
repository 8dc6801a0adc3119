// Attachments on their way out. A file the person attaches is stored at once (a media row in state
// `local` plus its bytes), so a reload keeps it; sending gives the files to the message (client_id),
// in one transaction with the outbox row, and the sender uploads them before `message.send`.
import type { MediaRef } from '../protocol';
import type { IrisDB } from '../store/db';
import { localMessageId } from '../store/models/messages';
import { queueSend, type SendInput } from '../store/models/outbox';
import type { MediaRow } from '../store/schema';
import { imageSize } from './dimensions';
import { withQuotaRetry } from '../store/models/mediaCache';
import { sanitizeFilename } from './filename';
import { randomId } from '../lib/randomId';
import { tooLargeText } from '../lib/format';
import { baseMime, kindFromMime } from '../protocol/mime';
import { MAX_UPLOAD_BYTES } from '../protocol/mediaLimits';

/** A file that cannot be attached; the message says why, in words. */
export class AttachmentRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachmentRefusedError';
  }
}

export interface StageOptions {
  lane: string;
  /** Overrides the file's own name (pasted images have none worth keeping). */
  filename?: string;
  /** A voice recording made in the app (kind voice). */
  recorded?: boolean;
  /** Seconds, when known (recordings). */
  duration?: number;
  now?: number;
}

/** Refuses a file over the limit or empty, before anything is stored. */
function checkAttachable(name: string, size: number, limit = MAX_UPLOAD_BYTES): void {
  if (size > limit) throw new AttachmentRefusedError(tooLargeText(name, size, limit));
  if (size === 0) throw new AttachmentRefusedError(`“${name}” is empty.`);
}

/** Stores a file to send with the lane's next message; returns its row (media_id is the future media_ref). */
export async function stageAttachment(db: IrisDB, file: Blob, options: StageOptions): Promise<MediaRow> {
  const given = options.filename ?? (file as Partial<File>).name;
  const mime = baseMime(file.type) || 'application/octet-stream';
  const filename = sanitizeFilename(given, defaultName(mime, options.now ?? Date.now()));
  checkAttachable(filename, file.size);
  const row: MediaRow = {
    media_id: randomId(),
    kind: kindFromMime(mime, { recorded: options.recorded }),
    mime,
    size: file.size,
    filename,
    lane: options.lane,
    state: 'local',
    lastUsed: options.now ?? Date.now(),
  };
  if (options.duration !== undefined && Number.isFinite(options.duration)) row.duration = options.duration;
  if (row.kind === 'image') {
    const size = await imageSize(file);
    if (size) Object.assign(row, size);
  }
  await withQuotaRetry(
    db,
    () =>
      db.transaction('rw', db.media, db.mediaBlobs, async () => {
        await db.mediaBlobs.put({ media_id: row.media_id, blob: file });
        await db.media.put(row);
      }),
    { bytes: file.size * 2 },
  );
  return row;
}

/** Removes an attachment from the composer (never one already given to a message). */
export async function unstageAttachment(db: IrisDB, mediaId: string): Promise<void> {
  await db.transaction('rw', db.media, db.mediaBlobs, async () => {
    const row = await db.media.get(mediaId);
    if (!row || row.state !== 'local' || row.client_id !== undefined) return;
    await db.media.delete(mediaId);
    await db.mediaBlobs.delete(mediaId);
  });
}

function refOf(row: MediaRow): MediaRef {
  return { media_id: row.media_id, kind: row.kind, mime: row.mime, size: row.size, filename: row.filename };
}

/**
 * queueSend, and the attachments (`input.attachments`, local media ids) given to the message in
 * the same transaction: the pending bubble shows them and they are never offered to the composer again.
 */
export async function queueSendWithMedia(db: IrisDB, input: SendInput): Promise<void> {
  const ids = input.attachments ?? [];
  if (ids.length === 0) {
    await queueSend(db, input);
    return;
  }
  await db.transaction('rw', db.messages, db.outbox, db.media, async () => {
    const rows = await db.media.bulkGet(ids);
    const usable = rows.every(
      (r) => r !== undefined && r.state === 'local' && (r.client_id === undefined || r.client_id === input.client_id),
    );
    if (!usable) throw new AttachmentRefusedError('An attachment is no longer on this device. Attach it again.');
    const { outbox } = await queueSend(db, { ...input, media: rows.map((r) => refOf(r!)) });
    if (!outbox) return;
    for (const [position, id] of ids.entries()) {
      await db.media.update(id, { client_id: input.client_id, position, message_id: localMessageId(input.client_id) });
    }
  });
}

function defaultName(mime: string, now: number): string {
  const stamp = new Date(now).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const ext = EXTENSIONS[mime] ?? '';
  const what = mime.startsWith('image/')
    ? 'image'
    : mime.startsWith('audio/')
      ? 'audio'
      : mime.startsWith('video/')
        ? 'video'
        : 'file';
  return `${what}-${stamp}${ext}`;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'audio/webm': '.webm',
  'audio/ogg': '.ogg',
  'audio/mp4': '.m4a',
  'audio/mpeg': '.mp3',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
};

/** A voice recording's filename. */
export function voiceFilename(mime: string, now = Date.now()): string {
  return defaultName(mime, now).replace(/^audio-/, 'voice-');
}
