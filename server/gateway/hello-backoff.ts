// Guessing the token costs time: after a few failed hellos from one address, each further failure
// makes that address wait twice as long (up to a cap) before its next hello is even looked at.
export interface HelloBackoffOptions {
  /** Failed hellos allowed before any wait (default 5: typos, a stale token on a few devices). */
  free?: number;
  /** The first wait (default 1 s); doubled with every failure after that. */
  baseMs?: number;
  /** The longest wait (default 5 min). */
  maxMs?: number;
  now?: () => number;
}

const FORGET_AFTER_MS = 15 * 60_000;
const MAX_ADDRESSES = 10_000;

interface Failures {
  count: number;
  until: number;
  last: number;
}

export class HelloBackoff {
  private readonly byAddress = new Map<string, Failures>();
  private readonly free: number;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly now: () => number;

  constructor(options: HelloBackoffOptions = {}) {
    this.free = options.free ?? 5;
    this.baseMs = options.baseMs ?? 1_000;
    this.maxMs = options.maxMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** How long `ip` must still wait before a hello from it is looked at; 0 when it may try now. */
  waitMs(ip: string): number {
    const entry = this.current(ip);
    return entry ? Math.max(0, entry.until - this.now()) : 0;
  }

  failed(ip: string): void {
    const t = this.now();
    const entry = this.current(ip) ?? { count: 0, until: 0, last: t };
    entry.count += 1;
    entry.last = t;
    const over = entry.count - this.free;
    if (over > 0) entry.until = t + Math.min(this.maxMs, this.baseMs * 2 ** Math.min(over - 1, 30));
    this.byAddress.delete(ip);
    this.byAddress.set(ip, entry);
    if (this.byAddress.size > MAX_ADDRESSES) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  succeeded(ip: string): void {
    this.byAddress.delete(ip);
  }

  private current(ip: string): Failures | undefined {
    const entry = this.byAddress.get(ip);
    if (entry && this.now() - entry.last > FORGET_AFTER_MS && this.now() >= entry.until) {
      this.byAddress.delete(ip);
      return undefined;
    }
    return entry;
  }
}
