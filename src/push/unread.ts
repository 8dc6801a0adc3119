// Pushes shown while no window was open: their messages are not in the DB yet, so the icon's badge
// counts them on top of the DB's unread total until the app opens (and syncs) again.
import type { IrisDB } from '../store/db';

const PUSH_UNREAD_KEY = 'pushUnread';

async function pushUnread(db: IrisDB): Promise<number> {
  const value = (await db.settings.get(PUSH_UNREAD_KEY))?.value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export async function addPushUnread(db: IrisDB): Promise<number> {
  return db.transaction('rw', db.settings, async () => {
    const next = (await pushUnread(db)) + 1;
    await db.settings.put({ key: PUSH_UNREAD_KEY, value: next });
    return next;
  });
}

export async function clearPushUnread(db: IrisDB): Promise<void> {
  await db.settings.delete(PUSH_UNREAD_KEY);
}
