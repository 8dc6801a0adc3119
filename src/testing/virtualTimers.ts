// A clock tests move by hand: timers fire only inside advance(), in time order.
import type { Timers } from '../net/timers';

export class VirtualTimers implements Timers {
  private time = 1_700_000_000_000;
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();

  setTimeout = (fn: () => void, ms: number): unknown => {
    const handle = ++this.seq;
    this.queue.set(handle, { at: this.time + Math.max(0, ms), fn });
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.queue.delete(handle as number);
  };

  now = (): number => this.time;

  /** Delays of the timers now pending, soonest first (relative to now). */
  pending(): number[] {
    return [...this.queue.values()].map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Moves the clock forward, firing every timer that comes due, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.queue) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.queue.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }
}
