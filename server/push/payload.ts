/**
 * What a Web Push carries: a small JSON object the service worker reads, plus the delivery headers
 * (TTL, Urgency, Topic) chosen from its kind and lane.
 */
import { createHmac } from 'node:crypto';
import { HIGH_PRIORITY_NOTIF_KINDS } from '../../src/protocol';
import type { PushMessage } from '../../src/protocol/push';
import type { PushPayload } from './types';

/**
 * Largest JSON plaintext we send. One aes128gcm record holds 4096 - 86 (header) - 16 (tag) - 1 (delimiter)
 * = 3993 bytes; some push services count the whole request body against 4096, so keep well under.
 */
export const MAX_PUSH_JSON_BYTES = 3072;
const TITLE_MAX_BYTES = 256;
/** Ids longer than this are dropped rather than cut: a cut id would point at the wrong thing. */
const ID_MAX_BYTES = 256;

type Urgency = 'very-low' | 'low' | 'normal' | 'high';

/** Pushes for questions that block the agent expire sooner: answering a long-dead question only confuses. */
export const TTL_SECONDS = { default: 24 * 60 * 60, question: 60 * 60 } as const;

export interface Delivery {
  ttl: number;
  urgency: Urgency;
  /** ≤ 32 URL-safe base64 characters; the push service keeps only the newest undelivered push per topic. */
  topic?: string;
}

/** Decodes UTF-8 `bytes`, cut to at most `maxBytes` without splitting a character, the cut marked with `marker`. */
export function cutUtf8Bytes(bytes: Buffer, maxBytes: number, marker = '…'): string {
  if (bytes.length <= maxBytes) return bytes.toString('utf8');
  const room = maxBytes - Buffer.byteLength(marker);
  if (room <= 0) return '';
  let end = room;
  // Back up over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + marker;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character, marking the cut with `marker`. */
export function cutUtf8(text: string, maxBytes: number, marker = '…'): string {
  if (text.length * 3 <= maxBytes) return text; // cannot be over: skip the encoding
  return cutUtf8Bytes(Buffer.from(text, 'utf8'), maxBytes, marker);
}

function shortId(value: string | undefined): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return Buffer.byteLength(value) <= ID_MAX_BYTES ? value : undefined;
}

function withoutUndefined(message: PushMessage): PushMessage {
  return Object.fromEntries(Object.entries(message).filter(([, v]) => v !== undefined)) as unknown as PushMessage;
}

/** Serialises `message`, cutting its body (then, if ever needed, its title) so the JSON fits MAX_PUSH_JSON_BYTES. */
export function encodePushMessage(message: PushMessage, maxBytes = MAX_PUSH_JSON_BYTES): string {
  const base = withoutUndefined({ ...message, title: cutUtf8(String(message.title ?? ''), TITLE_MAX_BYTES) });
  const fullBody = String(message.body ?? '');
  let budget = maxBytes - Buffer.byteLength(JSON.stringify({ ...base, body: '' }));
  if (budget < 0) {
    // Only absurd ids/tags get here: drop the title too rather than exceed the limit.
    return JSON.stringify({ kind: base.kind, title: '', body: '', ts: base.ts });
  }
  // JSON escaping can grow the text (quotes, control characters), so shrink until the encoded form fits.
  for (;;) {
    const json = JSON.stringify({ ...base, body: cutUtf8(fullBody, budget) });
    const over = Buffer.byteLength(json) - maxBytes;
    if (over <= 0) return json;
    budget -= over;
  }
}

/** The service worker message for a gateway notification. */
export function gatewayPushMessage(payload: PushPayload): PushMessage {
  return {
    kind: String(payload.kind),
    title: String(payload.title ?? ''),
    body: String(payload.body ?? ''),
    ts: Number.isFinite(payload.ts) ? payload.ts : Date.now(),
    lane: shortId(payload.lane),
    chat_id: shortId(payload.chat_id),
    thread_id: shortId(payload.thread_id),
    message_id: shortId(payload.message_id),
    picker_id: shortId(payload.picker_id),
  };
}

export function isHighPriorityKind(kind: string): boolean {
  return (HIGH_PRIORITY_NOTIF_KINDS as readonly string[]).includes(kind);
}

function isQuestionKind(kind: string): boolean {
  return kind === 'approval' || kind === 'clarify';
}

/** A Web Push Topic: HMAC of `seed` so the push service learns nothing about lane ids, cut to 32 chars. */
export function pushTopic(seed: string, key: string): string {
  return createHmac('sha256', key).update(seed).digest('base64url').slice(0, 32);
}

/**
 * TTL, urgency and topic for a gateway notification. The topic is per lane so queued pushes for a lane
 * collapse into the newest; a question (approval/clarify) gets its own per-picker topic, because a later
 * chat message in the same lane must never replace an unanswered question while the device is offline.
 */
export function gatewayDelivery(payload: PushPayload, topicFor: (seed: string) => string): Delivery {
  const kind = String(payload.kind);
  const question = isQuestionKind(kind);
  const lane = String(payload.lane || payload.thread_id || payload.chat_id || '');
  const seed = question ? `question:${lane}:${payload.picker_id || kind}` : `lane:${lane}`;
  return {
    ttl: question ? TTL_SECONDS.question : TTL_SECONDS.default,
    urgency: isHighPriorityKind(kind) ? 'high' : 'normal',
    topic: lane ? topicFor(seed) : undefined,
  };
}
