// Media the gateway holds: uploads (by the app's media_ref) and files the agent made. Bytes live in
// memory, or under dataDir/media with gateway-made names, so a filename can never pick the path.
import { createHash, randomUUID } from 'node:crypto';
import type { MediaKind, MediaRef } from '../../src/protocol';
import type { Persistence } from './persistence';

const FILE = 'media.json';

export interface MediaRecord extends MediaRef {
  sha256: string;
  /** The app's media_ref, for uploads. */
  ref?: string;
  /** The file's name under media/ when it is not the media_id (a media_id taken from the ref). */
  file?: string;
}

interface MediaFile {
  records: MediaRecord[];
}

export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'audio', 'video', 'document', 'voice'];

export class MediaStore {
  private readonly records = new Map<string, MediaRecord>();
  private readonly refs = new Map<string, string>();
  private readonly memoryBytes = new Map<string, Buffer>();

  constructor(private readonly persistence: Persistence) {
    const saved = persistence.readJson<MediaFile>(FILE);
    for (const r of saved?.records ?? []) {
      const file = r?.file ?? r?.media_id;
      if (!r || typeof r.media_id !== 'string' || typeof file !== 'string' || !/^med_[0-9a-f]{32}$/.test(file))
        continue;
      this.records.set(r.media_id, r);
      if (r.ref) this.refs.set(r.ref, r.media_id);
    }
  }

  get(mediaId: string): MediaRecord | undefined {
    return this.records.get(mediaId);
  }

  byRef(ref: string): MediaRecord | undefined {
    const id = this.refs.get(ref);
    return id ? this.records.get(id) : undefined;
  }

  list(): MediaRecord[] {
    return [...this.records.values()];
  }

  /**
   * Keep bytes (durably, before returning, when persistent) and return the new record. `idIsRef`
   * (a quirk) makes an upload's media_id the app's own media_ref; its file keeps a gateway-made name.
   */
  add(
    meta: { kind: MediaKind; mime: string; filename: string; ref?: string },
    bytes: Buffer,
    idIsRef = false,
  ): MediaRecord {
    const file = `med_${randomUUID().replace(/-/g, '')}`;
    const media_id = idIsRef && meta.ref && !this.records.has(meta.ref) ? meta.ref : file;
    const record: MediaRecord = {
      media_id,
      kind: meta.kind,
      mime: meta.mime,
      size: bytes.length,
      filename: meta.filename,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    if (meta.ref) record.ref = meta.ref;
    if (media_id !== file) record.file = file;
    if (this.persistence.enabled) this.persistence.writeBytesSync(`media/${file}.bin`, bytes);
    else this.memoryBytes.set(media_id, bytes);
    this.records.set(media_id, record);
    if (meta.ref) this.refs.set(meta.ref, media_id);
    this.persistence.mark(FILE, (): MediaFile => ({ records: [...this.records.values()] }));
    this.persistence.flushSync();
    return record;
  }

  bytes(mediaId: string): Buffer | undefined {
    const record = this.records.get(mediaId);
    if (!record) return undefined;
    return this.persistence.enabled
      ? this.persistence.readBytes(`media/${record.file ?? mediaId}.bin`)
      : this.memoryBytes.get(mediaId);
  }
}

/** The wire MediaRef of a record (no internal fields). */
export function mediaRefOf(r: MediaRecord): MediaRef {
  return { media_id: r.media_id, kind: r.kind, mime: r.mime, size: r.size, filename: r.filename };
}

/** A display filename: no path parts, no control characters, bounded. */
export function cleanFilename(raw: unknown): string {
  const base = typeof raw === 'string' ? (raw.split(/[\\/]/).pop() ?? '') : '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}
