// The URL an <img>, <audio>, <video> or link uses for a media item: /media/<id>, answered by the
// service worker from IndexedDB. A page the worker does not control (first load, a hard reload,
// dev mode) gets an object URL of the stored Blob instead.
import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';
import { mediaPath } from '../../../media/worker-messages';
import { iris } from '../../context';

const hasWorker = typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
const [controlled, setControlled] = createSignal(hasWorker && !!navigator.serviceWorker.controller);
if (hasWorker) navigator.serviceWorker.addEventListener('controllerchange', () => setControlled(!!navigator.serviceWorker.controller));

/** The src for `id` while `available()` (its bytes are stored); undefined otherwise. */
export function createMediaSrc(id: () => string, available: () => boolean): Accessor<string | undefined> {
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
    void iris()
      .db.mediaBlobs.get(mediaId)
      .then((row) => {
        if (cancelled || !row) return;
        url = URL.createObjectURL(row.blob);
        setSrc(url);
      });
    onCleanup(() => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    });
  });
  return src;
}
