// The gateway's options as a caller gives them, and as the handlers read them (defaults filled in).
import type { Agent } from './agent';
import type { HelloBackoffOptions } from './hello-backoff';
import type { GatewayQuirks } from './quirks';
import type { PushSink } from './types';

export interface GatewayOptions {
  token: string;
  /** Persistence directory (JSON files + media files, atomic writes); absent = in memory. */
  dataDir?: string;
  /** Delay between demo stream steps (default 40 ms); 0 streams as fast as the event loop allows. */
  streamDelayMs?: number;
  /** Largest accepted upload (default 20 MiB). */
  maxMediaBytes?: number;
  /** Largest accepted text frame (default 1 MiB); larger ones get `error` and are ignored. */
  maxFrameBytes?: number;
  /** Token bucket per connection; excess frames get `error rate_limited` (default burst 300, 100/s). */
  rateLimit?: { burst: number; perSecond: number };
  /** Called to wake a device; must not block. */
  push?: PushSink;
  /** Log sink; the token is never passed to it. */
  log?: (line: string) => void;
  /** Frames kept per device outbox before the oldest are dropped (default 50,000). */
  outboxLimit?: number;
  /** Waits imposed on an address after failed hellos (default: 5 free, then 1 s doubling to 5 min). */
  helloBackoff?: HelloBackoffOptions;
  /** Test only: behave as another gateway legitimately might (quirks.ts). Never set by the CLI. */
  quirks?: GatewayQuirks;
  /** The agent behind the gateway (default: the scripted demo agent). */
  agent?: Agent;
}

export interface ResolvedOptions {
  token: string;
  streamDelayMs: number;
  maxMediaBytes: number;
  maxFrameBytes: number;
  rateLimit: { burst: number; perSecond: number };
}

const MiB = 1024 * 1024;

export function resolveOptions(opts: GatewayOptions): ResolvedOptions {
  if (typeof opts.token !== 'string' || opts.token === '')
    throw new Error('createGateway: a non-empty token is required');
  return {
    token: opts.token,
    streamDelayMs: Math.max(0, opts.streamDelayMs ?? 40),
    maxMediaBytes: opts.maxMediaBytes ?? 20 * MiB,
    maxFrameBytes: opts.maxFrameBytes ?? MiB,
    rateLimit: opts.rateLimit ?? { burst: 300, perSecond: 100 },
  };
}
