/**
 * The push sink contract between the reference gateway and this module.
 *
 * PROVISIONAL: the gateway engineer defines these in server/gateway/index.ts. Until that
 * file exists they are declared here, mirroring the agreed shape exactly; reconcile by
 * replacing this file's body with `export type { PushTarget, PushPayload, PushSink } from '../gateway'`.
 */
import type { PushMode, WebPushSubscription } from '../../src/protocol';

export interface PushTarget {
  device_id: string;
  mode: PushMode;
  webpush?: WebPushSubscription;
  ntfy_topic?: string;
  fcm_token?: string;
}

export interface PushPayload {
  kind: string;
  title: string;
  body: string;
  lane: string;
  chat_id: string;
  thread_id?: string;
  message_id?: string;
  picker_id?: string;
  ts: number;
}

export interface PushSink {
  send(target: PushTarget, payload: PushPayload): void;
}

/** Structured log line. Callers must never pass secrets (topics, endpoints, keys, message text). */
export type PushLog = (event: string, fields?: Record<string, string | number | boolean | undefined>) => void;
