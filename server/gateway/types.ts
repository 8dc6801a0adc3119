// Public option and push types of the reference gateway (re-exported by index.ts).
import type { NotificationKind, WebPushSubscription } from '../../src/protocol';
import type { HelloBackoffOptions } from './hello-backoff';
import type { GatewayQuirks } from './quirks';
import type { Agent } from './agent';

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

export type PushMode = 'fcm' | 'ntfy' | 'none' | 'webpush';

export interface PushTarget {
  device_id: string;
  mode: PushMode;
  webpush?: WebPushSubscription;
  ntfy_topic?: string;
  fcm_token?: string;
}

export interface PushPayload {
  kind: NotificationKind | 'message';
  title: string;
  body: string;
  /** thread_id ?? chat_id */
  lane: string;
  chat_id: string;
  thread_id?: string;
  message_id?: string;
  picker_id?: string;
  ts: number;
}

export interface PushSink {
  /** Fire and forget; the gateway calls it off the request path and ignores what it throws. */
  send(target: PushTarget, payload: PushPayload): void;
}
