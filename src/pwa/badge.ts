// The installed icon's badge shows the total unread count (Badging API, where supported).
import type { IrisDB } from '../store/db';
import { liveQuery } from 'dexie';

type BadgeNavigator = typeof navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/** Unread = messages from others newer than the lane's read mark, across every lane. */
export async function totalUnread(db: IrisDB): Promise<number> {
  const lanes = new Map((await db.lanes.toArray()).map((l) => [l.lane, l.readTs]));
  let total = 0;
  await db.messages.each((m) => {
    if (m.role !== 'user' && m.ts > (lanes.get(m.lane) ?? 0)) total++;
  });
  return total;
}

export function keepBadgeUpdated(db: IrisDB): void {
  const nav = navigator as BadgeNavigator;
  if (!nav.setAppBadge) return;
  liveQuery(() => totalUnread(db)).subscribe({
    next: (n) => void (n > 0 ? nav.setAppBadge!(n) : nav.clearAppBadge?.())?.catch(() => undefined),
  });
}
