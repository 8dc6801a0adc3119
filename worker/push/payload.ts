// Reads what a push carries (src/protocol/push.ts: from the gateway, or from the ntfy relay with
// `source: 'ntfy'`). Untrusted: every field is checked.
import { epochMs, id, isObject, str } from '../../src/protocol/guards';
import type { PushMessage } from '../../src/protocol/push';

/** A push as read: the gateway's fields, or the relay's (`fromRelay`: no lane or ids, maybe a click URL, checked before use). */
export type IncomingPush = Omit<PushMessage, 'source' | 'tags' | 'priority'> & { fromRelay: boolean };

const MAX_TITLE = 200;
const MAX_BODY = 1000;
const MAX_ID = 256;

function shortId(value: unknown): string | undefined {
  const v = id(value);
  return v !== undefined && v.length <= MAX_ID ? v : undefined;
}

function text(value: unknown, max: number): string {
  const s = (str(value) ?? '').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Reads a push's data; anything that is not a JSON object is a push with no details. */
export function parsePush(data: unknown, now = Date.now()): IncomingPush {
  if (!isObject(data)) return { kind: 'generic', title: '', body: '', ts: now, fromRelay: false };
  const fromRelay = data.source === 'ntfy';
  const push: IncomingPush = {
    kind: (shortId(data.kind) ?? 'generic').slice(0, 40),
    title: text(data.title, MAX_TITLE),
    body: text(data.body, MAX_BODY),
    ts: epochMs(data.ts) ?? now,
    fromRelay,
  };
  if (fromRelay) {
    const click = str(data.click);
    if (click !== undefined && click.length <= 2000) push.click = click;
    return push;
  }
  const chat = shortId(data.chat_id);
  const thread = shortId(data.thread_id);
  const lane = shortId(data.lane) ?? thread ?? chat;
  if (lane !== undefined) push.lane = lane;
  if (chat !== undefined) push.chat_id = chat;
  if (thread !== undefined) push.thread_id = thread;
  const message = shortId(data.message_id);
  if (message !== undefined) push.message_id = message;
  const picker = shortId(data.picker_id);
  if (picker !== undefined) push.picker_id = picker;
  return push;
}

/** `event.data.json()` without throwing: a push with a body that is not JSON still gets shown. */
export function readPushData(data: { json(): unknown; text(): string } | null): unknown {
  if (!data) return undefined;
  try {
    return data.json();
  } catch {
    const body = data.text();
    return { title: '', body };
  }
}
