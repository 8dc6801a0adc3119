/// <reference lib="webworker" />
// App shell: precache the built HTML/JS/CSS/icons; navigations fall back to the cached index.html.
// Nothing else is cached: gateway traffic and media never come from an HTTP cache (data lives in IndexedDB).
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

export function installShell(manifest: Array<PrecacheEntry | string>): void {
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('index.html'), {
      denylist: [/^\/ws/, /^\/push\//, /^\/media\//, /^\/share-target/],
    }),
  );
}
