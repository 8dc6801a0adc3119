// Public push types of the reference gateway (re-exported by index.ts). A leaf: the store, delivery and
// the push sinks all import it, so it imports nothing of the gateway.
import type { NotificationKind, WebPushSubscription } from '../../src/protocol';

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
