// When a dead-looking connection is worth retrying at once (spec README §14): the browser says the
// network or the page is back. GatewayConnection subscribes while it is not closed.

/**
 * Calls `wake` when a dead-looking connection is worth retrying at once (`networkLost`: the device
 * has just lost its network, so a live one is likely dead); returns an unsubscribe.
 */
export type WakeSource = (wake: (networkLost?: boolean) => void) => () => void;

/**
 * The browser's signals: the network came back, or the page became visible. Losing the network
 * wakes too: an online connection is pinged at once, with a short deadline (a gateway on this very
 * machine still answers), so a dead socket shows as offline in seconds, not at the next heartbeat.
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
  const onOnline = () => wake();
  const onOffline = () => wake(true);
  g.addEventListener?.('online', onOnline);
  g.addEventListener?.('offline', onOffline);
  g.document?.addEventListener('visibilitychange', onVisible);
  return () => {
    g.removeEventListener?.('online', onOnline);
    g.removeEventListener?.('offline', onOffline);
    g.document?.removeEventListener('visibilitychange', onVisible);
  };
};
