/// <reference lib="webworker" />
// Web Share Target: Android's share sheet POSTs here; we keep what was shared in IndexedDB and open
// the app's share screen, where the user picks the lane whose composer gets it. Works offline.
import { IrisDB } from '../src/store/db';
import { PENDING_SHARE_KEY, type PendingShare } from '../src/share/pendingShare';

declare const self: ServiceWorkerGlobalScope;

export function installShareTarget(): void {
  self.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (event.request.method !== 'POST' || url.origin !== self.location.origin || url.pathname !== '/share-target')
      return;
    event.respondWith(receiveShare(event.request));
  });
}

async function receiveShare(request: Request): Promise<Response> {
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 100_000) : '';
  };
  const files = form.getAll('files').filter((f): f is File => typeof f !== 'string');
  const share: PendingShare = {
    title: text('title'),
    text: text('text'),
    url: text('url'),
    files: files.map((f) => ({ name: f.name, type: f.type, size: f.size, blob: f })),
    ts: Date.now(),
  };
  const db = new IrisDB();
  try {
    await db.settings.put({ key: PENDING_SHARE_KEY, value: share });
  } finally {
    db.close();
  }
  return Response.redirect('/#/share', 303);
}
