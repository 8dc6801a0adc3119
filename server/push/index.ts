/** Server-side Web Push: see routes.ts for what the serving process mounts and the gateway calls. */
export {
  createPushRoutes,
  ntfyMessageFor,
  VAPID_PUBLIC_KEY_PATH,
  type PushRoutes,
  type PushRoutesOptions,
} from './routes';
export { createWebPushSink, type GoneSubscription, type WebPushSink, type WebPushSinkOptions } from './webpush-sink';
export { createWebPushSender, type WebPushSender, type WebPushSenderOptions } from './webpush-sender';
export {
  createNtfyRelay,
  redactPushPath,
  type NtfyMessageInput,
  type NtfyPublished,
  type NtfyRelay,
} from './ntfy-relay';
export { createNtfyHttpPublisher } from './ntfy-publisher';
export { loadOrCreateVapid, vapidSubject, type Vapid } from './vapid';
export type { PushMessage } from './payload';
export { pushLogToLines } from './log';
export type { PushLog, PushPayload, PushSink, PushTarget } from './types';
