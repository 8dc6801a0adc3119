// The installed icon's badge shows the total unread count (Badging API, where supported).
import type { IrisDB } from '../store/db';
import { liveQuery } from 'dexie';
import { unreadCount } from '../store/models/messages';

type BadgeNavigator = typeof navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

/** Unread = messages from others newer than the lane's read mark, summed over the directory's lanes. */
export async function totalUnread(db: IrisDB): Promise<number> {
  // Per-lane index ranges, so a long history costs nothing once it is read.
  const lanes = await db.channels.toCollection().primaryKeys();
  const counts = await Promise.all(lanes.map((lane) => unreadCount(db, lane)));
  return counts.reduce((sum, n) => sum + n, 0);
}

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
