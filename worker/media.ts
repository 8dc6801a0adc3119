/// <reference lib="webworker" />
// /media/<media_id>: answered from IndexedDB (issue 6), so <img>, <audio>, <video> and download links
// work offline and seek. Bytes not here yet: a window is asked to pull them, and the answer waits
// for them (504 after a timeout).
import { IrisDB } from '../src/store/db';
import { WORKER_PULL_TIMEOUT_MS } from '../src/protocol/mediaLimits';
import { mediaIdFromPath, type MediaNeed } from '../src/media/worker-messages';
import { mediaError, mediaResponse } from './media/response';
import { waitForBytes } from './media/wait';

declare const self: ServiceWorkerGlobalScope;

let db: IrisDB | undefined;

/** One connection for the worker's life (Dexie closes it by itself when the app upgrades the schema). */
function database(): IrisDB {
  db ??= new IrisDB();
  return db;
}

export function installMedia(options: { timeoutMs?: number } = {}): void {
  self.addEventListener('fetch', (event) => {
    const { request } = event;
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const url = new URL(request.url);
    if (url.origin !== self.location.origin || !url.pathname.startsWith('/media/')) return;
    event.respondWith(
      serve(request, url, event.clientId || event.resultingClientId, options.timeoutMs ?? WORKER_PULL_TIMEOUT_MS),
    );
  });
}

async function serve(request: Request, url: URL, clientId: string, timeoutMs: number): Promise<Response> {
  const mediaId = mediaIdFromPath(url.pathname);
  if (!mediaId) return mediaError(404, 'No such media.');
  const store = database();
  try {
    const row = await store.media.get(mediaId);
    if (!row) return mediaError(404, 'No such media.');
    let stored = await store.mediaBlobs.get(mediaId);
    if (!stored) {
      await askForPull(clientId, mediaId);
      stored = await waitForBytes(store, mediaId, timeoutMs);
      if (!stored) return mediaError(504, 'The file was not downloaded in time. Try again when connected.');
    }
    return mediaResponse((await store.media.get(mediaId)) ?? row, stored.blob, request);
  } catch (err) {
    console.error('iris media:', err);
    return mediaError(500, 'The file could not be read from this device.');
  }
}

/** Asks the window that wants the file (else every window) to pull it over its connection. */
async function askForPull(clientId: string, mediaId: string): Promise<void> {
  const message: MediaNeed = { type: 'iris:media:need', media_id: mediaId };
  const asking = clientId ? await self.clients.get(clientId) : undefined;
  const targets = asking ? [asking] : await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of targets) client.postMessage(message);
}
