// Something another app shared into Iris (the service worker stores it), kept until the person picks
// the lane whose composer gets it.
import type { IrisDB } from '../db';
import { draftKey } from './settings';

export const PENDING_SHARE_KEY = 'share:pending';

export interface PendingShare {
  title: string;
  text: string;
  url: string;
  files: { name: string; type: string; size: number; blob: Blob }[];
  ts: number;
}

export async function getPendingShare(db: IrisDB): Promise<PendingShare | undefined> {
  return (await db.settings.get(PENDING_SHARE_KEY))?.value as PendingShare | undefined;
}

/**
 * The share's text goes into the lane's draft, on a line of its own after what was typed there, and
 * the share is done: both in one transaction, so a reload never adds it twice.
 */
export async function takeShareIntoDraft(db: IrisDB, lane: string, text: string): Promise<void> {
  await db.transaction('rw', db.settings, async () => {
    const draft = (await db.settings.get(draftKey(lane)))?.value;
    const before = typeof draft === 'string' && draft.trim() ? draft + '\n' : '';
    await db.settings.put({ key: draftKey(lane), value: before + text });
    await db.settings.delete(PENDING_SHARE_KEY);
  });
}
