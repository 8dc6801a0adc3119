// Between the service worker and the app's windows (postMessage), for media.

/** The worker was asked for /media/<id> whose bytes are not here: a window should download them. */
export interface MediaNeed {
  type: 'iris:media:need';
  media_id: string;
}

export function isMediaNeed(value: unknown): value is MediaNeed {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    v.type === 'iris:media:need' && typeof v.media_id === 'string' && v.media_id.length > 0 && v.media_id.length <= 200
  );
}

/** The URL the app uses for a media item; the service worker answers it from IndexedDB. */
export function mediaPath(mediaId: string): string {
  return `/media/${encodeURIComponent(mediaId)}`;
}

/** The media id of a /media/<id> path; undefined for anything else. */
export function mediaIdFromPath(pathname: string): string | undefined {
  const m = /^\/media\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  try {
    const id = decodeURIComponent(m[1]!);
    return id.length > 0 && id.length <= 200 && !id.includes('/') ? id : undefined;
  } catch {
    return undefined;
  }
}
