/// <reference lib="webworker" />
// The service worker: one module per concern, wired here.
import { clientsClaim } from 'workbox-core';
import { installShell } from './shell';
import { installShareTarget } from './share';
import { installPush } from './push';
import { installMedia } from './media';

declare const self: ServiceWorkerGlobalScope;

installShell(self.__WB_MANIFEST);
installShareTarget();
installPush();
installMedia();

// Updates wait until the user chooses "Reload" (the app posts SKIP_WAITING), so nothing reloads mid-typing.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// On first install, take control at once so the page that installed us works offline.
clientsClaim();
