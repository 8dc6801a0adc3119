// Rows as the app reads them: a row the app did not write itself the way it writes rows (an older
// version, a bug, a damaged profile, another tool) must not take a screen down with it. One message
// whose text was a number, or one channel whose name was an object, blanked the whole message list or
// channel list. Each table's rows are checked as Dexie reads them ('reading' hook): a valid row is
// returned as it is (same object); a broken one is repaired into something every component can show.
import {
  CHANNEL_KINDS as CHANNEL_KIND_LIST,
  MEDIA_KINDS as MEDIA_KIND_LIST,
  isPickerType,
  mediaRefs,
  pickerPayload,
  role,
} from '../protocol/guards';
import {
  TOOL_STATES,
  type ActivityRow,
  type ChannelRow,
  type LaneRow,
  type MediaRow,
  type MessageRow,
  type PickerRow,
  type ToastRow,
} from './schema';

type Loose = Record<string, unknown>;

/** Dexie also calls the hook with what a get() of a missing key found: nothing, passed on as it is. */
const isRow = (v: unknown): v is Loose => typeof v === 'object' && v !== null;

const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optStr = (v: unknown) => v === undefined || isStr(v);
const optNum = (v: unknown) => v === undefined || isNum(v);
const optBool = (v: unknown) => v === undefined || typeof v === 'boolean';
const asStr = (v: unknown, fallback = ''): string => (isStr(v) ? v : fallback);
const asNum = (v: unknown, fallback = 0): number =>
  isNum(v) ? v : isStr(v) && Number.isFinite(Number(v)) && v.trim() !== '' ? Number(v) : fallback;

/** Drops fields whose value has the wrong type (they are optional), keeps the rest. */
function dropBad(row: Loose, checks: Record<string, (v: unknown) => boolean>): Loose {
  const out: Loose = { ...row };
  for (const [key, ok] of Object.entries(checks)) if (key in out && !ok(out[key])) delete out[key];
  return out;
}

const STATUSES = new Set(['streaming', 'final', 'pending', 'sent', 'read', 'failed']);
const CHANNEL_KINDS = new Set(CHANNEL_KIND_LIST);
const MEDIA_KINDS = new Set(MEDIA_KIND_LIST);
const MEDIA_STATES = new Set(['remote', 'downloading', 'ready', 'evicted', 'failed', 'local']);
const PICKER_STATES = new Set(['open', 'answered', 'closed']);

/** Media refs exactly as the reducer stores them (mediaRefs fills in missing fields, so compare with it). */
const validMedia = (v: unknown) => {
  if (v === undefined) return true;
  const refs = Array.isArray(v) ? mediaRefs(v) : undefined;
  if (refs?.length !== (v as unknown[]).length) return false;
  return refs.every((ref, i) => {
    const item = (v as Loose[])[i]!;
    return (
      item.media_id === ref.media_id &&
      item.kind === ref.kind &&
      item.mime === ref.mime &&
      item.size === ref.size &&
      item.filename === ref.filename
    );
  });
};

export function repairMessage(raw: unknown): MessageRow {
  if (!isRow(raw)) return raw as unknown as MessageRow;
  const r = raw as Loose;
  const ok =
    isStr(r.message_id) &&
    isStr(r.lane) &&
    isStr(r.chat_id) &&
    role(r.role) !== undefined &&
    isStr(r.text) &&
    isNum(r.ts) &&
    STATUSES.has(r.status as string) &&
    optStr(r.thread_id) &&
    optStr(r.reasoning) &&
    optStr(r.model) &&
    optNum(r.tokens) &&
    optNum(r.thought_ms) &&
    optNum(r.started_at) &&
    optStr(r.client_id) &&
    optStr(r.reply_to) &&
    optStr(r.turn) &&
    optStr(r.error) &&
    validMedia(r.media);
  if (ok) return raw as unknown as MessageRow;
  const out = dropBad(r, {
    thread_id: isStr,
    reasoning: isStr,
    model: isStr,
    tokens: isNum,
    thought_ms: isNum,
    started_at: isNum,
    client_id: isStr,
    reply_to: isStr,
    turn: isStr,
    error: isStr,
  });
  out.lane = asStr(r.lane, asStr(r.chat_id, 'unknown'));
  out.chat_id = asStr(r.chat_id, out.lane as string);
  out.role = role(r.role) ?? 'system';
  out.text = asStr(r.text);
  out.ts = asNum(r.ts);
  out.status = STATUSES.has(r.status as string) ? r.status : 'final';
  if (r.media !== undefined) {
    const media = mediaRefs(r.media);
    if (media?.length) out.media = media;
    else delete out.media;
  }
  return out as unknown as MessageRow;
}

export function repairChannel(raw: unknown): ChannelRow {
  if (!isRow(raw)) return raw as unknown as ChannelRow;
  const r = raw as Loose;
  const ok =
    isStr(r.chat_id) &&
    isStr(r.name) &&
    CHANNEL_KINDS.has(r.kind as string) &&
    isNum(r.order) &&
    (r.parent_chat_id === undefined || r.parent_chat_id === null || isStr(r.parent_chat_id)) &&
    optBool(r.is_default) &&
    optBool(r.archived) &&
    optBool(r.favorite) &&
    optStr(r.icon) &&
    optStr(r.color);
  if (ok) return raw as unknown as ChannelRow;
  const out = dropBad(r, {
    parent_chat_id: (v) => v === null || isStr(v),
    is_default: (v) => typeof v === 'boolean',
    archived: (v) => typeof v === 'boolean',
    favorite: (v) => typeof v === 'boolean',
    icon: isStr,
    color: isStr,
  });
  out.chat_id = asStr(r.chat_id, 'unknown');
  out.name = asStr(r.name) || (out.chat_id as string);
  out.kind = CHANNEL_KINDS.has(r.kind as string) ? r.kind : 'channel';
  out.order = asNum(r.order, Number.MAX_SAFE_INTEGER);
  return out as unknown as ChannelRow;
}

export function repairLane(raw: unknown): LaneRow {
  if (!isRow(raw)) return raw as unknown as LaneRow;
  const r = raw as Loose;
  const ok =
    isStr(r.lane) &&
    isNum(r.readTs) &&
    typeof r.busy === 'boolean' &&
    typeof r.typing === 'boolean' &&
    isNum(r.turnSeq) &&
    optStr(r.readMessageId) &&
    optStr(r.busyReason) &&
    optStr(r.turn) &&
    optStr(r.oldestMessageId) &&
    optBool(r.hasMore) &&
    optStr(r.autoThread) &&
    optNum(r.lastTs);
  if (ok) return raw as unknown as LaneRow;
  const out = dropBad(r, {
    readMessageId: isStr,
    busyReason: isStr,
    turn: isStr,
    oldestMessageId: isStr,
    hasMore: (v) => typeof v === 'boolean',
    autoThread: isStr,
    lastTs: isNum,
  });
  out.lane = asStr(r.lane, 'unknown');
  out.readTs = asNum(r.readTs);
  out.busy = r.busy === true;
  out.typing = r.typing === true;
  out.turnSeq = Math.max(0, Math.trunc(asNum(r.turnSeq)));
  return out as unknown as LaneRow;
}

export function repairPicker(raw: unknown): PickerRow {
  if (!isRow(raw)) return raw as unknown as PickerRow;
  const r = raw as Loose;
  const type = isPickerType(r.type) ? r.type : undefined;
  const payload =
    type && r.payload && typeof r.payload === 'object' ? pickerPayload(type, r.payload as Loose) : undefined;
  const ok =
    isStr(r.picker_id) &&
    isStr(r.lane) &&
    type !== undefined &&
    payload !== undefined &&
    PICKER_STATES.has(r.state as string) &&
    isNum(r.ts) &&
    optStr(r.answer);
  if (ok && JSON.stringify(payload) === JSON.stringify(r.payload)) return raw as unknown as PickerRow;
  // A question that cannot be read cannot be answered: it is shown closed rather than taking the lane down.
  const out = dropBad(r, { answer: isStr });
  out.picker_id = asStr(r.picker_id, 'unknown');
  out.lane = asStr(r.lane, 'unknown');
  out.type = type ?? 'picker.confirm';
  out.payload = payload ?? pickerPayload(out.type as PickerRow['type'], { picker_id: out.picker_id });
  out.state = payload && PICKER_STATES.has(r.state as string) ? r.state : 'closed';
  out.ts = asNum(r.ts);
  return out as unknown as PickerRow;
}

export function repairToast(raw: unknown): ToastRow {
  if (!isRow(raw)) return raw as unknown as ToastRow;
  const r = raw as Loose;
  if (
    isStr(r.kind) &&
    isStr(r.title) &&
    isStr(r.body) &&
    isNum(r.ts) &&
    optStr(r.lane) &&
    (r.done === undefined || typeof r.done === 'boolean')
  )
    return raw as unknown as ToastRow;
  const out = dropBad(r, { lane: isStr, done: (v) => typeof v === 'boolean' });
  out.kind = asStr(r.kind, 'generic');
  out.title = asStr(r.title);
  out.body = asStr(r.body);
  out.ts = asNum(r.ts);
  return out as unknown as ToastRow;
}

export function repairActivity(raw: unknown): ActivityRow {
  if (!isRow(raw)) return raw as unknown as ActivityRow;
  const r = raw as Loose;
  const notesOk = r.notes === undefined || (Array.isArray(r.notes) && r.notes.every(isStr));
  const argsOk = r.args === undefined || (typeof r.args === 'object' && r.args !== null && !Array.isArray(r.args));
  const ok =
    isStr(r.id) &&
    isStr(r.lane) &&
    isStr(r.turn) &&
    (r.kind === 'tool' || r.kind === 'commentary') &&
    isNum(r.ts) &&
    isNum(r.order) &&
    optNum(r.index) &&
    optStr(r.name) &&
    optStr(r.preview) &&
    argsOk &&
    notesOk &&
    (r.state === undefined || TOOL_STATES.includes(r.state as string)) &&
    optNum(r.duration) &&
    optStr(r.output) &&
    optStr(r.message_id) &&
    optStr(r.text);
  if (ok) return raw as unknown as ActivityRow;
  const out = dropBad(r, {
    index: isNum,
    name: isStr,
    preview: isStr,
    duration: isNum,
    output: isStr,
    message_id: isStr,
    text: isStr,
    state: (v) => TOOL_STATES.includes(v as string),
  });
  out.id = asStr(r.id, 'unknown');
  out.lane = asStr(r.lane, 'unknown');
  out.turn = asStr(r.turn);
  out.kind = r.kind === 'commentary' ? 'commentary' : 'tool';
  out.ts = asNum(r.ts);
  out.order = asNum(r.order);
  if (!argsOk) delete out.args;
  if (!notesOk) out.notes = Array.isArray(r.notes) ? r.notes.filter(isStr) : [];
  return out as unknown as ActivityRow;
}

export function repairMedia(raw: unknown): MediaRow {
  if (!isRow(raw)) return raw as unknown as MediaRow;
  const r = raw as Loose;
  const ok =
    isStr(r.media_id) &&
    MEDIA_KINDS.has(r.kind as string) &&
    isStr(r.mime) &&
    isNum(r.size) &&
    isStr(r.filename) &&
    MEDIA_STATES.has(r.state as string) &&
    isNum(r.lastUsed) &&
    optStr(r.lane) &&
    optStr(r.message_id) &&
    optNum(r.progress) &&
    optStr(r.error) &&
    optNum(r.width) &&
    optNum(r.height) &&
    optNum(r.duration) &&
    optStr(r.client_id) &&
    optNum(r.position);
  if (ok) return raw as unknown as MediaRow;
  const out = dropBad(r, {
    lane: isStr,
    message_id: isStr,
    progress: isNum,
    error: isStr,
    width: isNum,
    height: isNum,
    duration: isNum,
    client_id: isStr,
    position: isNum,
  });
  out.media_id = asStr(r.media_id, 'unknown');
  out.kind = MEDIA_KINDS.has(r.kind as string) ? r.kind : 'document';
  out.mime = asStr(r.mime, 'application/octet-stream');
  out.size = Math.max(0, asNum(r.size));
  out.filename = asStr(r.filename) || 'file';
  // Bytes whose description could not be trusted are fetched again rather than shown.
  out.state = MEDIA_STATES.has(r.state as string)
    ? r.state === 'ready' && !isNum(r.size)
      ? 'evicted'
      : r.state
    : 'remote';
  out.lastUsed = asNum(r.lastUsed);
  return out as unknown as MediaRow;
}
