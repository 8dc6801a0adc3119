// Which of a lane's questions its conversation keeps as cards (answered or closed, the newest few): one
// rule for the lane (models/pickers.ts) and the lane head painted at start (laneHead.ts), which reads
// IndexedDB before Dexie and must draw the same cards.
import type { PickerRow } from './schema';

/** How many settled pickers a lane's conversation shows (the newest): a handful, never a flood. */
const SETTLED_PICKERS_SHOWN = 20;

/** Of a lane's pickers, those no longer open that its conversation shows, oldest first. */
export function shownSettledPickers(rows: readonly PickerRow[]): PickerRow[] {
  return rows
    .filter((p) => p.state !== 'open')
    .sort((a, b) => a.ts - b.ts || a.picker_id.localeCompare(b.picker_id))
    .slice(-SETTLED_PICKERS_SHOWN);
}
