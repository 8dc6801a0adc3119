// One notification operation at a time, across the app's windows and its service worker. Chromium (seen
// here headless, in 54 of 90 tries) loses a notification from getNotifications() for good when a
// getNotifications() runs, in any window or the worker, while its showNotification() is in flight: the
// read reconciles its list with what is on screen and forgets the one not drawn yet, so the app can no
// longer find it to close when its lane is read, or to count. Reads and shows take this Web Lock.
export const NOTIFICATIONS_LOCK = 'iris:notifications';

/** Runs `work` holding the lock; without Web Locks (old browsers), as it is. */
export function withNotificationLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  return locks ? locks.request(NOTIFICATIONS_LOCK, work) : work();
}
