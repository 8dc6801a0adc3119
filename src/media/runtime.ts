// The media machinery of one window, started on first use: the background puller, what wakes it
// (new media, the connection coming back), the service worker's requests, and settling the files of
// sent messages as their echoes land.
import { createEffect, createRoot } from 'solid-js';
import type { IrisClient } from '../client';
import type { IrisDB } from '../store/db';
import { unsettledSignature } from './adopt';
import { enforceCacheCap } from '../store/models/mediaCache';
import { MediaPuller } from './puller';
import { watchLive } from './watch';
import { isMediaNeed } from './worker-messages';

/**
 * Starts the window's puller and what wakes it. Once per window: the runtime keeps the one it
 * started (`useIris().shared(startMediaPuller)`) and stops it, and what wakes it, with itself.
 */
export function startMediaPuller({ db, client }: { db: IrisDB; client: IrisClient }): MediaPuller {
  const started = new MediaPuller(db, {
    pull: (id) => client.pull(id),
    state: () => client.state(),
    isLeader: () => client.isLeader(),
  });

  createRoot((dispose) => {
    started.ownWaker(dispose);
    // Back online (or leadership moved here): look for work.
    createEffect(() => {
      if (client.state() === 'online' || client.isLeader()) started.kick();
    });
  });
  // New media offered, a row back to remote, a setting changed.
  started.ownWaker(
    watchLive(
      'the watch for media to download',
      () => db.media.where('state').anyOf('remote', 'downloading').primaryKeys(),
      () => started.kick(),
    ),
  );
  started.ownWaker(
    watchLive(
      'the watch of the auto-download setting',
      () => db.settings.get('media.autoDownload'),
      () => started.kick(),
    ),
  );
  // An echo of a message with files: move the bytes under the gateway's ids at once.
  started.ownWaker(
    watchLive(
      'the watch for echoes of sent files',
      () => unsettledSignature(db),
      (signature) => {
        if (signature.includes(':echo') || signature.includes(':gone')) started.kick(); // settles first, then pulls
      },
    ),
  );
  if (typeof navigator !== 'undefined' && 'serviceWorker' in navigator) {
    const onMessage = (event: MessageEvent) => {
      if (isMediaNeed(event.data)) started.request(event.data.media_id);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    started.ownWaker(() => navigator.serviceWorker.removeEventListener('message', onMessage));
    navigator.serviceWorker.startMessages();
  }
  void enforceCacheCap(db).catch((err: unknown) => console.warn('iris: could not trim the media cache', err));
  return started;
}
