// Media transfers on one connection (spec README §10): one upload and one pull at a time, so every
// binary frame from the app belongs to the open upload; pulls are queued so their bytes never mix.
import { createHash } from 'node:crypto';
import type { ClientFrameOf, MediaKind } from '../../src/protocol';
import type { GatewayContext } from './context';
import { cleanFilename, MEDIA_KINDS } from './mediastore';
import type { Requester } from './peer';

/** The session a transfer runs on (a ClientSession): it answers, sends the bytes, and knows the gateway. */
export interface MediaPeer extends Requester {
  readonly ctx: GatewayContext;
  sendBinary(bytes: Buffer): Promise<boolean>;
}

const CHUNK_BYTES = 256 * 1024;

interface Upload {
  id?: number;
  ref: string;
  kind: MediaKind;
  mime: string;
  filename: string;
  size: number;
  chunks: Buffer[];
  received: number;
}

export class MediaSession {
  private upload: Upload | undefined;
  /** The ref of an upload refused mid-way: its remaining bytes and its end are ignored quietly. */
  private refusedRef: string | undefined;
  private pulls: Promise<void> = Promise.resolve();

  constructor(private readonly session: MediaPeer) {}

  start(frame: ClientFrameOf<'media.upload.start'>): void {
    const p = frame.payload as Record<string, unknown>;
    const max = this.session.ctx.opts.maxMediaBytes;
    const ref =
      typeof p.media_ref === 'string' && p.media_ref.length > 0 && p.media_ref.length <= 200 ? p.media_ref : undefined;
    if (!ref) return this.session.error('unsupported', 'media.upload.start needs a media_ref.', frame.id);
    if (typeof p.size !== 'number' || !Number.isSafeInteger(p.size) || p.size < 0)
      return this.session.error('unsupported', 'media.upload.start needs the size in bytes.', frame.id);
    if (p.size > max)
      return this.session.error('media_too_large', `The file is ${p.size} bytes; the limit is ${max}.`, frame.id);
    // A new start replaces an unfinished upload (the app gave up on it).
    this.refusedRef = undefined;
    this.upload = {
      id: frame.id,
      ref,
      kind: MEDIA_KINDS.includes(p.kind as MediaKind) ? (p.kind as MediaKind) : 'document',
      mime: typeof p.mime === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(p.mime) ? p.mime : 'application/octet-stream',
      filename: cleanFilename(p.filename),
      size: p.size,
      chunks: [],
      received: 0,
    };
  }

  onBinary(bytes: Buffer): void {
    const up = this.upload;
    if (!up) return; // no open upload: ignored (spec README §10)
    up.received += bytes.length;
    const max = this.session.ctx.opts.maxMediaBytes;
    if (up.received > max) {
      this.upload = undefined;
      this.refusedRef = up.ref;
      return this.session.error('media_too_large', `The upload passed the ${max}-byte limit.`, up.id);
    }
    up.chunks.push(bytes);
  }

  end(frame: ClientFrameOf<'media.upload.end'>): void {
    const up = this.upload;
    if (!up && frame.payload.media_ref === this.refusedRef) return void (this.refusedRef = undefined);
    if (!up || up.ref !== frame.payload.media_ref)
      return this.session.error('not_found', 'No upload is open for that media_ref.', up?.id ?? frame.id);
    this.upload = undefined;
    if (up.received !== up.size)
      return this.session.error(
        'internal',
        `Received ${up.received} bytes but the upload announced ${up.size}; send it again.`,
        up.id,
      );
    const bytes = Buffer.concat(up.chunks);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const claimed = typeof frame.payload.sha256 === 'string' ? frame.payload.sha256.toLowerCase() : '';
    if (sha !== claimed)
      return this.session.error('internal', 'The sha256 of the received bytes does not match; send it again.', up.id);
    this.session.ctx.store.media.add(
      { kind: up.kind, mime: up.mime, filename: up.filename, ref: up.ref },
      bytes,
      this.session.ctx.raw.quirks?.mediaIdIsRef,
    );
    this.session.send({ v: 1, type: 'media.upload.ack', id: up.id, payload: { ok: true, media_ref: up.ref } });
  }

  pull(frame: ClientFrameOf<'media.pull'>): void {
    const mediaId = frame.payload.media_id;
    const { store } = this.session.ctx;
    if (typeof mediaId !== 'string' || !store.media.get(mediaId))
      return this.session.error('not_found', 'No such media.', frame.id);
    this.pulls = this.pulls
      .then(() => this.sendMedia(mediaId, frame.id))
      .catch((err) => this.session.ctx.log(`gateway: pull failed: ${err}`));
  }

  abort(): void {
    this.upload = undefined;
  }

  private async sendMedia(mediaId: string, id: number | undefined): Promise<void> {
    const bytes = this.session.ctx.store.media.bytes(mediaId);
    if (!bytes) return this.session.error('internal', 'The media file could not be read.', id);
    for (let off = 0; off < bytes.length; off += CHUNK_BYTES) {
      if (!(await this.session.sendBinary(bytes.subarray(off, off + CHUNK_BYTES)))) return;
    }
    this.session.send({ v: 1, type: 'media.pull.end', id, payload: { ok: true } });
  }
}
