// In-app notifications (notification frames, errors), newest last.
import type { IrisDB } from '../db';
import type { ToastRow } from '../schema';

/** Toasts without a gateway ts are considered the same notification within this window. */
const SAME_TOAST_WINDOW_MS = 5_000;

/**
 * Add a toast unless the same one (kind, title, body, lane) is already there at the same ts — or,
 * when `exactTs` is false (the gateway gave no ts), within the last few seconds. Returns its id.
 */
export async function addToast(db: IrisDB, toast: Omit<ToastRow, 'id'>, exactTs = true): Promise<number> {
  return db.transaction('rw', db.toasts, async () => {
    const from = exactTs ? toast.ts : toast.ts - SAME_TOAST_WINDOW_MS;
    const same = await db.toasts
      .where('ts')
      .between(from, toast.ts, true, true)
      .filter((t) => t.kind === toast.kind && t.title === toast.title && t.body === toast.body && t.lane === toast.lane)
      .first();
    if (same?.id !== undefined) return same.id;
    const row: ToastRow = { kind: toast.kind, title: toast.title, body: toast.body, ts: toast.ts };
    if (toast.lane !== undefined) row.lane = toast.lane;
    return db.toasts.add(row);
  });
}

/** The newest `limit` toasts, oldest first. */
export async function recentToasts(db: IrisDB, limit = 5): Promise<ToastRow[]> {
  return (await db.toasts.orderBy('ts').reverse().limit(limit).toArray()).reverse();
}

export async function dismissToast(db: IrisDB, id: number): Promise<void> {
  await db.toasts.delete(id);
}

/** Keep only the newest `keep` toasts. */
export async function pruneToasts(db: IrisDB, keep = 50): Promise<number> {
  return db.transaction('rw', db.toasts, async () => {
    const total = await db.toasts.count();
    if (total <= keep) return 0;
    const oldKeys = await db.toasts.orderBy('ts').limit(total - keep).primaryKeys();
    await db.toasts.bulkDelete(oldKeys);
    return oldKeys.length;
  });
}
