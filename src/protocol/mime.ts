// What kind of attachment a file is, and what type its bytes are given, from its MIME type (spec:
// image, audio, video, document, voice). One rule for the app and the service worker: a gateway's
// MIME type and kind are only claims, and only the types listed here are ever shown inline or given
// to a Blob; every other file (HTML, SVG, any *+xml, scripts, PDFs…) is bytes to save.
import type { MediaKind } from './frames';

/** The MIME type without parameters, lower-cased ("audio/webm;codecs=opus" → "audio/webm"); "" when not a type. */
export function baseMime(mime: string | undefined): string {
  const base = (mime ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(base) ? base : '';
}

/**
 * Raster images, audio and video the browser plays itself: none of them can run script, even opened
 * on their own as a page. SVG is not here (it is markup with script), nor is anything else.
 */
const INLINE_MIME: ReadonlySet<string> = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'audio/aac',
  'audio/ogg',
  'audio/opus',
  'audio/webm',
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/flac',
  'audio/x-flac',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
]);

/** The bytes of anything not shown inline: the browser saves them, never renders them. */
const DOWNLOAD_MIME = 'application/octet-stream';

/** Types on the inline list; everything else (text/html, image/svg+xml, *+xml…) is only ever downloaded. */
export function isInlineMime(mime: string | undefined): boolean {
  return INLINE_MIME.has(baseMime(mime));
}

/** The type a Blob, an object URL or a /media/ answer carries: the inline type, else a download. */
export function servedMime(mime: string | undefined): string {
  const base = baseMime(mime);
  return INLINE_MIME.has(base) ? base : DOWNLOAD_MIME;
}

/** `blob` typed by the rule above (a cheap slice when its own type differs, e.g. bytes stored before it). */
export function typedBlob(blob: Blob, mime: string | undefined): Blob {
  const type = servedMime(mime);
  return blob.type === type ? blob : blob.slice(0, blob.size, type);
}

/** Inline images, audio and video by their type; everything else is a document. Recordings are `voice`. */
export function kindFromMime(mime: string | undefined, options: { recorded?: boolean } = {}): MediaKind {
  if (options.recorded) return 'voice';
  const base = baseMime(mime);
  if (!INLINE_MIME.has(base)) return 'document';
  if (base.startsWith('image/')) return 'image';
  if (base.startsWith('audio/')) return 'audio';
  return 'video';
}

/**
 * The kind the app uses for a file someone else offered as `offered`: kept only when the MIME type
 * agrees (an "image" that is an SVG, or an "audio" that is HTML, is a document). Voice is audio.
 */
export function mediaKindFor(offered: MediaKind, mime: string | undefined): MediaKind {
  const fromMime = kindFromMime(mime);
  if (offered === 'voice') return fromMime === 'audio' ? 'voice' : 'document';
  return offered === fromMime ? offered : 'document';
}
