// In-app notifications (notification frames, errors), newest last. A toast that went away stays as a
// row marked done: the same event arriving again (a replay, a second copy) finds it and shows nothing.
import type { IrisDB } from '../db';
import type { PickerRow, ToastRow } from '../schema';

/** Toasts without a gateway ts are considered the same notification within this window. */
const SAME_TOAST_WINDOW_MS = 5_000;
/** Done rows kept to recognise a repeat; older ones go. */
const KEEP_TOASTS = 100;
/** At most this many toasts are on screen at once. */
const MAX_SHOWN_TOASTS = 2;

/** How long a toast stays, by kind: errors longer than news; one asking for an answer until dealt with. */
const INFO_TOAST_MS = 5_000;
const ERROR_TOAST_MS = 8_000;
export const ERROR_TOAST_KIND = 'error';

/** Notification kinds that ask the person to answer a picker (spec README §11, §13). */
const PICKER_KINDS: Readonly<Record<string, PickerRow['type']>> = {
  approval: 'picker.approval',
  clarify: 'picker.clarify',
};

/** undefined: the toast stays until it is acted on or closed. */
export function toastLifetime(toast: Pick<ToastRow, 'kind'>): number | undefined {
  if (toast.kind === ERROR_TOAST_KIND) return ERROR_TOAST_MS;
  return Object.hasOwn(PICKER_KINDS, toast.kind) ? undefined : INFO_TOAST_MS;
}

/**
 * Add a toast unless the same one (kind, title, body, lane) is already there at the same ts — or,
 * when `exactTs` is false (the gateway gave no ts), within the last few seconds; a `quiet` one is
 * recorded as already done (a replayed frame: known, never shown). Returns its id.
 */
export async function addToast(
  db: IrisDB,
  toast: Omit<ToastRow, 'id' | 'done'>,
  exactTs = true,
  quiet = false,
): Promise<number> {
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
    if (quiet) row.done = true;
    const id = await db.toasts.add(row);
    await pruneToasts(db, KEEP_TOASTS);
    return id;
  });
}

/** The newest `limit` toasts, oldest first (done ones included). */
export async function recentToasts(db: IrisDB, limit = 5): Promise<ToastRow[]> {
  return (await db.toasts.orderBy('ts').reverse().limit(limit).toArray()).reverse();
}

/**
 * The toasts to show now, newest first, at most MAX_SHOWN_TOASTS. A toast asking to answer a picker is
 * left out while that lane is on screen (the picker's own dialog asks there) and once no such picker
 * is open any more (answered here or elsewhere); one with no picker of its kind at all still shows.
 */
export async function visibleToasts(db: IrisDB, laneOnScreen: string | undefined): Promise<ToastRow[]> {
  return db.transaction('r', db.toasts, db.pickers, async () => {
    const waiting = await db.toasts
      .orderBy('ts')
      .reverse()
      .filter((t) => !t.done)
      .toArray();
    const pickersOf = new Map<string, PickerRow[]>();
    const result: ToastRow[] = [];
    for (const toast of waiting) {
      if (result.length >= MAX_SHOWN_TOASTS) break;
      const type = Object.hasOwn(PICKER_KINDS, toast.kind) ? PICKER_KINDS[toast.kind] : undefined;
      if (type && toast.lane !== undefined) {
        if (toast.lane === laneOnScreen) continue;
        if (!pickersOf.has(toast.lane))
          pickersOf.set(toast.lane, await db.pickers.where('lane').equals(toast.lane).toArray());
        const ofKind = pickersOf.get(toast.lane)!.filter((p) => p.type === type);
        if (ofKind.length > 0 && !ofKind.some((p) => p.state === 'open')) continue;
      }
      result.push(toast);
    }
    return result;
  });
}

/** The toast went away (timed out, closed, opened): kept as done so a repeat of it stays away. */
export async function dismissToast(db: IrisDB, id: number): Promise<void> {
  await db.toasts.update(id, { done: true });
}

/** Keep only the newest `keep` toasts. */
export async function pruneToasts(db: IrisDB, keep = 50): Promise<number> {
  return db.transaction('rw', db.toasts, async () => {
    const total = await db.toasts.count();
    if (total <= keep) return 0;
    const oldKeys = await db.toasts
      .orderBy('ts')
      .limit(total - keep)
      .primaryKeys();
    await db.toasts.bulkDelete(oldKeys);
    return oldKeys.length;
  });
}
