// What kind of attachment a file is, from its MIME type (spec: image, audio, video, document, voice).
import type { MediaKind } from '../protocol';

/** The MIME type without parameters, lower-cased ("audio/webm;codecs=opus" → "audio/webm"); "" when not a type. */
export function baseMime(mime: string | undefined): string {
  const base = (mime ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9][\w.+-]*\/[\w.+-]+$/.test(base) ? base : '';
}

/** image/*, audio/*, video/* by their type; everything else is a document. Recordings are `voice`. */
export function kindFromMime(mime: string | undefined, options: { recorded?: boolean } = {}): MediaKind {
  const base = baseMime(mime);
  if (options.recorded) return 'voice';
  // SVG is a document: it is markup, not a picture the app shows inline.
  if (base.startsWith('image/') && base !== 'image/svg+xml') return 'image';
  if (base.startsWith('audio/')) return 'audio';
  if (base.startsWith('video/')) return 'video';
  return 'document';
}

/** Raster images, audio and video: safe to show inline. Anything else is only ever downloaded. */
export function isInlineMime(mime: string | undefined): boolean {
  const base = baseMime(mime);
  if (base === 'image/svg+xml') return false;
  return /^(image|audio|video)\//.test(base);
}
