// Type guards for untrusted gateway data: each returns a clean value or undefined, never throws.
// Only known fields are copied, so nothing unexpected (or hostile) reaches the DB or the UI.
import type {
  Channel,
  ChannelKind,
  Choice,
  CommandInfo,
  HistoryTool,
  MediaKind,
  MediaRef,
  ModelProvider,
  PickerFrame,
  Role,
} from './frames';
import { mediaKindFor } from './mime';

/** Ids of messages the user is sending live under this prefix until the gateway's echo replaces them. */
export const LOCAL_ID_PREFIX = 'local:';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string (ids, lanes, keys). */
export function id(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A message id from the gateway: non-empty and never in the app's own `local:` namespace. */
export function serverMessageId(value: unknown): string | undefined {
  const v = id(value);
  return v !== undefined && !v.startsWith(LOCAL_ID_PREFIX) ? v : undefined;
}

export function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

export function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Times in epoch seconds from 2001 to the year 5138: in milliseconds the same numbers are days in
 * January 1970 to March 1973, when no message was sent.
 */
const SECONDS_FROM = 1e9;
const SECONDS_BELOW = 1e11;

/**
 * A time from the gateway, in epoch milliseconds (the schema's unit). Python's `time.time()` gives
 * seconds, and a gateway written in it may send them: a value that can only be seconds is read as
 * seconds. Zero, negative and non-numbers are no time at all.
 */
export function epochMs(value: unknown): number | undefined {
  const v = finite(value);
  if (v === undefined || v <= 0) return undefined;
  return Math.round(v >= SECONDS_FROM && v < SECONDS_BELOW ? v * 1000 : v);
}

export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

const ROLES: readonly string[] = ['user', 'assistant', 'system', 'cron'] satisfies Role[];
export function role(value: unknown): Role | undefined {
  return typeof value === 'string' && ROLES.includes(value) ? (value as Role) : undefined;
}

export const CHANNEL_KINDS: readonly string[] = ['default', 'channel', 'thread'] satisfies ChannelKind[];
export const MEDIA_KINDS: readonly string[] = ['image', 'audio', 'video', 'document', 'voice'] satisfies MediaKind[];

/** A directory entry as protocol.py's `_channel_payload` puts it (kind defaults to channel, as there). */
export function channel(value: unknown): Channel | undefined {
  if (!isObject(value)) return undefined;
  const chatId = id(value.chat_id);
  if (chatId === undefined) return undefined;
  const kind =
    typeof value.kind === 'string' && CHANNEL_KINDS.includes(value.kind) ? (value.kind as ChannelKind) : 'channel';
  const out: Channel = { chat_id: chatId, name: str(value.name) ?? chatId, kind };
  const parent = id(value.parent_chat_id);
  if (parent !== undefined && parent !== chatId) out.parent_chat_id = parent;
  if (value.is_default === true) out.is_default = true;
  if (value.archived === true) out.archived = true;
  if (value.favorite === true) out.favorite = true;
  const icon = id(value.icon);
  if (icon !== undefined) out.icon = icon;
  const color = id(value.color);
  if (color !== undefined) out.color = color;
  return out;
}

export function mediaRef(value: unknown): MediaRef | undefined {
  if (!isObject(value)) return undefined;
  const mediaId = id(value.media_id);
  if (mediaId === undefined) return undefined;
  const offered =
    typeof value.kind === 'string' && MEDIA_KINDS.includes(value.kind) ? (value.kind as MediaKind) : 'document';
  const mime = id(value.mime) ?? 'application/octet-stream';
  const size = int(value.size);
  return {
    media_id: mediaId,
    // The gateway's kind is a claim: the app's MIME allow-list decides what is shown inline.
    kind: mediaKindFor(offered, mime),
    mime,
    size: size !== undefined && size >= 0 ? size : 0,
    filename: id(value.filename) ?? mediaId,
  };
}

/** A list of media refs, without duplicates; undefined when the value is not an array. */
export function mediaRefs(value: unknown): MediaRef[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: MediaRef[] = [];
  for (const item of value) {
    const ref = mediaRef(item);
    if (ref && !out.some((r) => r.media_id === ref.media_id)) out.push(ref);
  }
  return out;
}

export function command(value: unknown): CommandInfo | undefined {
  if (!isObject(value)) return undefined;
  const name = id(value.name);
  if (name === undefined) return undefined;
  const out: CommandInfo = { name };
  const description = str(value.description);
  if (description !== undefined) out.description = description;
  const argsHint = str(value.args_hint);
  if (argsHint !== undefined) out.args_hint = argsHint;
  const category = str(value.category);
  if (category !== undefined) out.category = category;
  return out;
}

function choices(value: unknown): Choice[] {
  if (!Array.isArray(value)) return [];
  const out: Choice[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const v = str(item.value);
    if (v === undefined) continue;
    const choice: Choice = { value: v, label: str(item.label) ?? v };
    if (item.is_current === true) choice.is_current = true;
    out.push(choice);
  }
  return out;
}

function providers(value: unknown): ModelProvider[] {
  if (!Array.isArray(value)) return [];
  const out: ModelProvider[] = [];
  for (const item of value) {
    if (!isObject(item)) continue;
    const pid = id(item.id);
    if (pid === undefined) continue;
    const models: ModelProvider['models'] = [];
    if (Array.isArray(item.models)) {
      for (const m of item.models) {
        if (!isObject(m)) continue;
        const mid = id(m.id);
        if (mid !== undefined) models.push({ id: mid, label: str(m.label) ?? mid });
      }
    }
    out.push({ id: pid, label: str(item.label) ?? pid, models });
  }
  return out;
}

function withOptional<T extends object>(base: T, extra: Record<string, string | undefined>): T {
  for (const [key, value] of Object.entries(extra))
    if (value !== undefined) (base as Record<string, unknown>)[key] = value;
  return base;
}

const PICKER_TYPES: readonly string[] = [
  'picker.model',
  'picker.choice',
  'picker.clarify',
  'picker.approval',
  'picker.confirm',
] satisfies PickerFrame['type'][];

/** At most this many tool calls of one history entry are kept (a hostile page cannot fill the store). */
const MAX_HISTORY_TOOLS = 200;

/** A history entry's `tools` (the extension): the well-formed calls, one per index, in order; [] for none. */
export function historyTools(value: unknown): HistoryTool[] {
  if (!Array.isArray(value)) return [];
  const out = new Map<number, HistoryTool>();
  for (const item of value.slice(0, MAX_HISTORY_TOOLS)) {
    if (!isObject(item)) continue;
    const index = int(item.index);
    const name = id(item.name);
    const ok = bool(item.ok);
    if (index === undefined || index < 0 || name === undefined || out.has(index)) continue;
    const tool: HistoryTool = { index, name };
    if (ok !== undefined) tool.ok = ok;
    const duration = finite(item.duration);
    if (duration !== undefined && duration >= 0) tool.duration = duration;
    const preview = str(item.preview);
    if (preview) tool.preview = preview;
    out.set(index, tool);
  }
  return [...out.values()];
}

/** agent.busy's `answered` extension: which question took which answer; undefined unless both are there. */
export function pickerAnswer(value: unknown): { picker_id: string; value: string } | undefined {
  if (!isObject(value)) return undefined;
  const pickerId = id(value.picker_id);
  const answer = str(value.value);
  return pickerId !== undefined && answer !== undefined ? { picker_id: pickerId, value: answer } : undefined;
}

export function isPickerType(type: unknown): type is PickerFrame['type'] {
  return typeof type === 'string' && PICKER_TYPES.includes(type);
}

/** The payload of a picker frame, reduced to the fields its dialog shows; undefined without a picker_id. */
export function pickerPayload(
  type: PickerFrame['type'],
  p: Record<string, unknown>,
): PickerFrame['payload'] | undefined {
  const pickerId = id(p.picker_id);
  if (pickerId === undefined) return undefined;
  switch (type) {
    case 'picker.model':
      return withOptional(
        { picker_id: pickerId, providers: providers(p.providers) },
        { current_model: str(p.current_model), current_provider: str(p.current_provider) },
      );
    case 'picker.choice':
      return { picker_id: pickerId, title: str(p.title) ?? '', choices: choices(p.choices) };
    case 'picker.clarify':
      return { picker_id: pickerId, question: str(p.question) ?? '', choices: choices(p.choices) };
    case 'picker.approval':
      return withOptional({ picker_id: pickerId, command: str(p.command) ?? '' }, { description: str(p.description) });
    case 'picker.confirm':
      return withOptional({ picker_id: pickerId, title: str(p.title) ?? '' }, { message: str(p.message) });
  }
}
