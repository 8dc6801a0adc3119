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
  return frameOf(data);
}

/** The same rules for a frame already parsed from JSON (one element of a replay batch). */
function frameOf(data: unknown): Frame | null {
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

/** This project's extension: a sync replay's frames, many to a text message (`caps.batches` in hello). */
export const BATCH_TYPE = 'frames';

/** What one text message from the gateway holds: its frame, or a replay batch's frames. */
export interface ServerMessage {
  frames: ServerFrame[];
  /** The message was a replay batch (meaningful only on a live connection). */
  batch: boolean;
}

/**
 * One text message from the gateway: a frame of a type the app understands (none when malformed or
 * unknown, spec README §1), or the frames of a replay batch, `{"v":1,"type":"frames","payload":{"frames":
 * […]}}`, each read by the rules of a frame that came alone (unknown or malformed ones left out). The
 * reference gateway writes batches for a device that asked for them (server/gateway/README.md).
 */
export function parseServerMessage(raw: string): ServerMessage {
  const update = lazyUpdate(raw);
  if (update) return { frames: [update], batch: false };
  const frame = parseFrame(raw);
  if (frame?.type !== BATCH_TYPE) {
    const known = serverFrame(frame);
    return { frames: known ? [known] : [], batch: false };
  }
  const list = frame.payload.frames;
  const frames: ServerFrame[] = [];
  for (const item of Array.isArray(list) ? list : []) {
    const inner = serverFrame(frameOf(item));
    if (inner) frames.push(inner);
  }
  return { frames, batch: true };
}

/** A parsed frame of a type the app understands, or null (unknown types are ignored, spec README §1). */
export function parseServerFrame(raw: string): ServerFrame | null {
  return lazyUpdate(raw) ?? serverFrame(parseFrame(raw));
}

/** The frame if its type is one the app understands. */
function serverFrame(frame: Frame | null): ServerFrame | null {
  return frame && serverTypes.has(frame.type) ? (frame as unknown as ServerFrame) : null;
}

/**
 * The start of a `message.update` as Frame.to_dict writes it (protocol.py, and the reference gateway):
 * v and type, chat_id and thread_id, then the payload with message_id before text, ids without escapes.
 */
const UPDATE_HEAD =
  /^\{"v":1,"type":"message\.update"(?:,"chat_id":"([^"\\]*)")?(?:,"thread_id":"([^"\\]*)")?,"payload":\{"message_id":"([^"\\]+)","text":"/;

/**
 * A `message.update` whose text is parsed only when it is read. Each update carries the whole text so
 * far and a fast stream brings hundreds a second, most of them replaced by the next before they are
 * shown or stored (the frame pipeline keeps only the newest per paint): parsing each whole (a 150 KB
 * text, thousands of times) was the stream's largest script and much of its garbage. The envelope and
 * the message id are read from the frame's start; `text` and `reasoning` parse the frame on first use.
 * A frame that does not parse, or whose parse disagrees with its start (a repeated key), has no text:
 * an update of nothing, as updates may be skipped (spec README §7). Any other form is parsed at once.
 */
function lazyUpdate(raw: string): ServerFrame | undefined {
  const head = UPDATE_HEAD.exec(raw);
  if (!head) return undefined;
  const [, chatId, threadId, messageId] = head as unknown as [string, string | undefined, string | undefined, string];
  let source: string | undefined = raw;
  let body: { text?: string; reasoning?: string } | undefined;
  const read = () => {
    if (!body) {
      body = updateBody(source!, chatId, threadId, messageId);
      source = undefined; // the frame's JSON is not needed again
    }
    return body;
  };
  const payload = { message_id: messageId } as { message_id: string; text: string; reasoning?: string };
  Object.defineProperties(payload, {
    text: { enumerable: true, get: () => read().text },
    reasoning: { enumerable: true, get: () => read().reasoning },
  });
  const frame: Envelope<'message.update', typeof payload> = { v: PROTOCOL_VERSION, type: 'message.update', payload };
  if (chatId !== undefined) frame.chat_id = chatId;
  if (threadId !== undefined) frame.thread_id = threadId;
  return frame as ServerFrame;
}

function updateBody(
  raw: string,
  chatId: string | undefined,
  threadId: string | undefined,
  messageId: string,
): { text?: string; reasoning?: string } {
  const frame = parseFrame(raw);
  const p = frame?.payload;
  if (
    !p ||
    frame.type !== 'message.update' ||
    frame.chat_id !== chatId ||
    frame.thread_id !== threadId ||
    p.message_id !== messageId ||
    typeof p.text !== 'string'
  )
    return {};
  return typeof p.reasoning === 'string' ? { text: p.text, reasoning: p.reasoning } : { text: p.text };
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
