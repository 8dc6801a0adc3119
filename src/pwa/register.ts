// Registers the service worker (workbox-window) and exposes "a new version is ready" as a signal.
// The new version activates only when the user chooses Reload: nothing reloads while they type.
import type { Workbox } from 'workbox-window';
import { createSignal } from 'solid-js';

const [updateReady, setUpdateReady] = createSignal(false);
let workbox: Workbox | undefined;

export { updateReady };

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  // workbox-window registers only once the page has loaded anyway; fetching it then too keeps it off
  // the first screen's critical path.
  afterLoad()
    .then(() => import('workbox-window'))
    .then(({ Workbox }) => {
      workbox = new Workbox('/sw.js', { scope: '/' });
      workbox.addEventListener('waiting', () => setUpdateReady(true));
      return workbox.register();
    })
    .then((registration) => {
      // Look for a new version now and then, and whenever the app comes back to the foreground.
      const check = () => void registration?.update().catch(() => undefined); // offline or the server away: the next check looks again
      setInterval(check, 60 * 60 * 1000);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    })
    // Some browsers refuse service workers (private windows, blocked by policy): the app still
    // works online, it just cannot open offline.
    .catch((error: unknown) =>
      console.warn('Service worker not registered:', error instanceof Error ? error.message : error),
    );
}

function afterLoad(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/** Activates the waiting version and reloads once it controls the page. Drafts and the outbox live in IndexedDB. */
// eslint-disable-next-line @typescript-eslint/require-await -- async so a throw from workbox reaches the caller as a rejection
export async function applyUpdate(): Promise<void> {
  if (!workbox) return;
  window.dispatchEvent(new Event('iris:before-reload'));
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}

/** Asks the browser to keep our storage (history offline) from eviction; called after pairing. */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}
