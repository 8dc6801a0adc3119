// A mark in localStorage that this browser holds a gateway token (never the token: only that there is
// one). public/pair-preload.js reads it before the app runs: a paired browser opens a lane, so it skips
// the pairing page's preload; src/app/boot.ts reads it too, to prepare the lane head's time formatter. The
// database decides; the runtime writes this copy on every change of it.

export const PAIRED_HINT_KEY = 'iris.paired';

export function writePairedHint(paired: boolean): void {
  try {
    if (paired) localStorage.setItem(PAIRED_HINT_KEY, '1');
    else localStorage.removeItem(PAIRED_HINT_KEY);
  } catch {
    // storage blocked: the pairing page is preloaded for everyone, as without the mark
  }
}

/** Whether the mark says this browser has paired (false when storage is blocked: as a new visitor's). */
export function readPairedHint(): boolean {
  try {
    return localStorage.getItem(PAIRED_HINT_KEY) === '1';
  } catch {
    return false;
  }
}
