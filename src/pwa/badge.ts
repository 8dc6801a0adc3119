// The installed icon's badge shows the total unread count (Badging API, where supported).
import type { IrisDB } from '../store/db';
import { liveQuery } from 'dexie';
import { totalUnread } from '../store/models/messages';

type BadgeNavigator = typeof navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

export function keepBadgeUpdated(db: IrisDB): void {
  const nav = navigator as BadgeNavigator;
  if (!nav.setAppBadge) return;
  liveQuery(() => totalUnread(db)).subscribe({
    next: (n) =>
      void (n > 0 ? nav.setAppBadge!(n) : nav.clearAppBadge?.())?.catch((err: unknown) =>
        console.warn('iris: could not set the app badge', err),
      ),
    error: (err: unknown) => console.warn('iris: the unread badge stopped updating', err),
  });
}
