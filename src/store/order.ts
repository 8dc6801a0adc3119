// The time a message sorts by in its lane. A lane is read in [lane+ts] order, and IndexedDB breaks a
// tie by message id, which is no order at all (ids are random). A gateway that stamps whole seconds
// (Python's int(time.time())) gives a message and the reply that follows it the same ts, and one that
// stamps none leaves each message its arrival time, the same for a whole replayed chunk: a fast
// exchange then showed replies above their questions. So where the gateway gives two messages the same
// time, the lane keeps the order it gave them in (live, replayed, or down a history page), each a step
// after the one before; the time shown stays the gateway's to the millisecond. Only an exact tie counts:
// a millisecond ts that happens to fall on a whole second is not taken for a coarse one.
import type { LaneRow } from './schema';

/** Less than any clock's tick: places a message after another without changing the time it shows. */
export const ORDER_STEP = 1 / 1024;

/** `value` is the gateway's `given` millisecond, or a step past it. */
function within(value: number | undefined, given: number): value is number {
  return value !== undefined && value >= given && value - given < 1;
}

/**
 * `given`: the gateway's ts (epoch ms), if any. `known`: where the app already placed this message (its
 * pending send, a reply streamed since it arrived, an earlier copy of it). `after`: the newest time in
 * the lane (or the history page) before it. `now`: its arrival.
 * Idempotent: applied again, a message keeps the time it got (the gateway's, or a step past it).
 */
export function sortTs(
  given: number | undefined,
  known: number | undefined,
  after: number | undefined,
  now: number,
): number {
  if (given === undefined) {
    if (known !== undefined) return known;
    return after !== undefined && after >= now ? after + ORDER_STEP : now;
  }
  // Placed already (a step it took past a tie).
  if (within(known, given)) return known;
  // The same instant to the gateway as the one before it: right after that one.
  return within(after, given) ? after + ORDER_STEP : given;
}

/**
 * A streamed reply's place while it streams: its arrival, or a step past the lane's newest when that is
 * the same instant or later (a replayed chunk shares one arrival; a gateway clock ahead of this one
 * stamped its question later than now). Its stop's ts then places it for good.
 */
export function arrivalTs(after: number | undefined, now: number): number {
  return after !== undefined && after >= now ? after + ORDER_STEP : now;
}

/** Records `ts` as the lane's newest message time, the `after` of the next message (mutates and returns `row`). */
export function withLastTs(row: LaneRow, ts: number): LaneRow {
  if (!(row.lastTs !== undefined && row.lastTs >= ts)) row.lastTs = ts;
  return row;
}
