// Per-address limits for what anyone on the network can call without a token (the relay, /ws
// before hello). The address is the TCP peer's: behind a reverse proxy every client shares the
// proxy's, so limits there are per proxy, and generous enough for that.
import type { IncomingMessage } from 'node:http';
import { TokenBucket } from '../gateway/ratelimit';

/** The peer's address, an IPv4-mapped IPv6 address written as IPv4 ("::ffff:10.0.0.1" → "10.0.0.1"). */
export function clientIp(req: Pick<IncomingMessage, 'socket'>): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

export interface RateLimit {
  /** Requests at once. */
  burst: number;
  /** Requests refilled per second. */
  perSecond: number;
}

/** A token bucket per address; the least recently seen addresses are forgotten beyond `maxAddresses`. */
export class IpRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one request for `ip`; false when it is over its rate. */
  take(ip: string): boolean {
    let bucket = this.buckets.get(ip);
    if (bucket) this.buckets.delete(ip);
    else bucket = new TokenBucket(this.limit.burst, this.limit.perSecond, this.now);
    this.buckets.set(ip, bucket);
    if (this.buckets.size > this.maxAddresses) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket.take();
  }

  /** Seconds until one more request is allowed (for Retry-After). */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(1 / this.limit.perSecond));
  }
}
