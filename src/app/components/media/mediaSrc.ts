// The URL an <img>, <audio>, <video> or link uses for a media item: /media/<id>, answered by the
// service worker from IndexedDB. A page the worker does not control (first load, a hard reload,
// dev mode) gets an object URL of the stored Blob instead, typed by the app's MIME rule: opened on its
// own (a new tab, a pasted link), a blob: URL is a page in the app's origin, so an SVG or HTML file
// must be a download there, never a document.
import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';
import { typedBlob } from '../../../protocol/mime';
import { mediaPath } from '../../../media/worker-messages';
import { getMedia, getMediaBlob } from '../../../store/models/media';
import { useIris } from '../../../runtime';

const hasWorker = typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
const [controlled, setControlled] = createSignal(hasWorker && !!navigator.serviceWorker.controller);
if (hasWorker)
  navigator.serviceWorker.addEventListener('controllerchange', () =>
    setControlled(!!navigator.serviceWorker.controller),
  );

/** The src for `id` while `available()` (its bytes are stored); undefined otherwise. */
export function createMediaSrc(id: () => string, available: () => boolean): Accessor<string | undefined> {
  const { db } = useIris();
  const [src, setSrc] = createSignal<string | undefined>();
  createEffect(() => {
    const mediaId = id();
    if (!available()) {
      setSrc(undefined);
      return;
    }
    if (controlled()) {
      setSrc(mediaPath(mediaId));
      return;
    }
    let url: string | undefined;
    let cancelled = false;
    void Promise.all([getMediaBlob(db, mediaId), getMedia(db, mediaId)]).then(([row, media]) => {
      if (cancelled || !row) return;
      url = URL.createObjectURL(typedBlob(row.blob, media?.mime));
      setSrc(url);
    });
    onCleanup(() => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    });
  });
  return src;
}
