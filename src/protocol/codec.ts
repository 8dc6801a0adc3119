// parseFrame/encodeFrame: the same rules as protocol.py's Frame.from_json / Frame.to_dict.
import {
  CLIENT_FRAME_TYPES,
  PROTOCOL_VERSION,
  SERVER_FRAME_TYPES,
  type ClientFrame,
  type Envelope,
  type ServerFrame,
} from './frames';

/** A frame whose envelope is valid; its payload is still untrusted. */
export type Frame = Envelope<string, Record<string, unknown>>;

/**
 * Parse one text frame. Returns null for anything that is not a valid frame (bad JSON, not an
 * object, missing/empty/non-string type). A non-object payload becomes {}; a non-integer (or
 * boolean) id and non-string chat_id/thread_id are dropped, as is a cursor that is not a non-negative
 * integer (spec README §16). Never throws.
 */
export function parseFrame(raw: string): Frame | null {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const obj = data as Record<string, unknown>;
  const type = obj.type;
  if (typeof type !== 'string' || type === '') return null;
  const payload = obj.payload;
  const frame: Frame = {
    v: PROTOCOL_VERSION,
    type,
    payload:
      typeof payload === 'object' && payload !== null && !Array.isArray(payload)
        ? (payload as Record<string, unknown>)
        : {},
  };
  if (typeof obj.id === 'number' && Number.isSafeInteger(obj.id)) frame.id = obj.id;
  if (typeof obj.chat_id === 'string') frame.chat_id = obj.chat_id;
  if (typeof obj.thread_id === 'string') frame.thread_id = obj.thread_id;
  if (typeof obj.cursor === 'number' && Number.isSafeInteger(obj.cursor) && obj.cursor >= 0) frame.cursor = obj.cursor;
  return frame;
}

const serverTypes: ReadonlySet<string> = new Set(SERVER_FRAME_TYPES);
const clientTypes: ReadonlySet<string> = new Set(CLIENT_FRAME_TYPES);

/** A parsed frame of a type the app understands, or null (unknown types are ignored, spec README §1). */
export function parseServerFrame(raw: string): ServerFrame | null {
  const frame = parseFrame(raw);
  return frame && serverTypes.has(frame.type) ? (frame as unknown as ServerFrame) : null;
}

/** A parsed frame of a type the gateway understands, or null. */
export function parseClientFrame(raw: string): ClientFrame | null {
  const frame = parseFrame(raw);
  return frame && clientTypes.has(frame.type) ? (frame as unknown as ClientFrame) : null;
}

/** Serialize a frame as Frame.to_dict does: v and type first, absent id/chat_id/thread_id/cursor omitted. */
export function encodeFrame(frame: {
  type: string;
  payload?: object;
  id?: number;
  chat_id?: string;
  thread_id?: string;
  cursor?: number;
  v?: number;
}): string {
  const out: Record<string, unknown> = { v: frame.v ?? PROTOCOL_VERSION, type: frame.type };
  if (frame.id !== undefined && frame.id !== null) out.id = frame.id;
  if (frame.chat_id !== undefined && frame.chat_id !== null) out.chat_id = frame.chat_id;
  if (frame.thread_id !== undefined && frame.thread_id !== null) out.thread_id = frame.thread_id;
  if (frame.cursor !== undefined && frame.cursor !== null) out.cursor = frame.cursor;
  out.payload = frame.payload ?? {};
  return JSON.stringify(out);
}
