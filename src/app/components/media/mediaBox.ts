// The box a picture or video takes in a message, from its pixel size when known, so the list keeps
// its place while it loads (no layout jump).
import type { JSX } from 'solid-js';

const MAX_SIDE = 320;
/** The box of a picture or a video whose pixel size is not known (yet). */
export const UNKNOWN_IMAGE = { width: 240, height: 180 };
export const UNKNOWN_VIDEO = { width: 320, height: 180 };
/** Tiny pictures (icons, the demo's 64 px drawings) are shown up to twice their size, to about this. */
const SMALL_SIDE = 160;

export function mediaBox(
  width: number | undefined,
  height: number | undefined,
  fallback: { width: number; height: number },
): JSX.CSSProperties {
  const w = width && width > 0 ? width : fallback.width;
  const h = height && height > 0 ? height : fallback.height;
  const longest = Math.max(w, h);
  const scale = longest < SMALL_SIDE ? Math.min(2, SMALL_SIDE / longest) : Math.min(1, MAX_SIDE / w, MAX_SIDE / h);
  return { width: `${Math.max(48, Math.round(w * scale))}px`, 'aspect-ratio': `${w} / ${h}` };
}

/**
 * The box a message's attachment of `kind` takes before its player or picture is drawn (the lane head,
 * the lane while the media code loads): a picture's or a video's; undefined for other kinds.
 */
export function attachmentBox(
  kind: string,
  width: number | undefined,
  height: number | undefined,
): JSX.CSSProperties | undefined {
  if (kind === 'image') return mediaBox(width, height, UNKNOWN_IMAGE);
  if (kind === 'video') return mediaBox(width, height, UNKNOWN_VIDEO);
  return undefined;
}
