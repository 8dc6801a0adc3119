// What a Web Push carries to the service worker: a small JSON object that server/push/payload.ts
// writes and worker/push/payload.ts reads (as untrusted, every field checked). Not a gateway frame:
// this project's own format between its server and its service worker.

/** `event.data.json()` of a push. Absent fields are omitted. */
export interface PushMessage {
  kind: string;
  title: string;
  body: string;
  /** epoch ms */
  ts: number;
  lane?: string;
  chat_id?: string;
  thread_id?: string;
  message_id?: string;
  picker_id?: string;
  /** Set only on messages forwarded by the ntfy relay (which carry no lane or ids). */
  source?: 'ntfy';
  /** ntfy relay: the publisher's Click URL (http/https only). The service worker must still check its origin. */
  click?: string;
  /** ntfy relay: the publisher's tags and priority (1..5). */
  tags?: string[];
  priority?: number;
}
