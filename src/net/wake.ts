// When a dead-looking connection is worth retrying at once (spec README §14): the browser says the
// network or the page is back. GatewayConnection subscribes while it is not closed.

/** Calls `wake` when a dead-looking connection is worth retrying at once; returns an unsubscribe. */
export type WakeSource = (wake: () => void) => () => void;

/**
 * The browser's signals: the network came back, or the page became visible. Losing the network
 * wakes too: an online connection is pinged at once, so a dead socket shows as offline within the
 * 10 s liveness window instead of the next 25 s heartbeat.
 */
export const browserWakeSource: WakeSource = (wake) => {
  // Typed by hand: the service worker's build has no DOM types, and no document.
  type Listening = {
    addEventListener(type: string, fn: () => void): void;
    removeEventListener(type: string, fn: () => void): void;
  };
  const g = globalThis as Partial<Listening> & { document?: Listening & { visibilityState: string } };
  const onVisible = () => {
    if (g.document?.visibilityState === 'visible') wake();
  };
  g.addEventListener?.('online', wake);
  g.addEventListener?.('offline', wake);
  g.document?.addEventListener('visibilitychange', onVisible);
  return () => {
    g.removeEventListener?.('online', wake);
    g.removeEventListener?.('offline', wake);
    g.document?.removeEventListener('visibilitychange', onVisible);
  };
};
