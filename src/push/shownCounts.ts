// How many pushes the notification shown for a tag stands for ("3 new messages"), kept in the DB by the
// service worker as it shows one. The notification's own data says the same, but Chromium's
// getNotifications() may not list a notification yet just after showNotification() resolved (seen 31 ms
// after, at load 11): the next push for that lane then replaced it without its count. Cleared when the
// notification goes (a click, a dismissal, the app closing it) or the lane is looked at.
import type { IrisDB } from '../store/db';

const PREFIX = 'pushShown:';

export async function shownCount(db: IrisDB, tag: string): Promise<number> {
  const value = (await db.settings.get(PREFIX + tag))?.value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export async function setShownCount(db: IrisDB, tag: string, count: number): Promise<void> {
  await db.settings.put({ key: PREFIX + tag, value: count });
}

/** Read first: the app clears its lane's count on every look, and a delete wakes the settings' live queries. */
export async function clearShownCount(db: IrisDB, tag: string): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    if (await db.settings.get(PREFIX + tag)) await db.settings.delete(PREFIX + tag);
  });
}
