// Test-only switches that make the reference gateway read the protocol as another gateway
// legitimately might (issue 14). Each one is a reading the spec allows; the app must work with every
// one of them. Reached only through `createGateway({ quirks })` (and startServer's `gateway` options):
// the CLI never passes them. The table in README.md says what the app does with each.
import type { ServerFrame } from '../../src/protocol';
import { answersWithoutIdType } from '../../src/protocol/answers';

export interface GatewayQuirks {
  /** Uploads are known by the app's own `media_ref`, which the echo carries as `media[].media_id` (spec §10). */
  mediaIdIsRef?: boolean;
  /** A thread's frames carry only the thread's own `chat_id`, no `thread_id` (tolerated, spec §4). */
  threadOwnChatId?: boolean;
  /** The §5 `client_id` extension is unknown: echoes carry none, and a repeated send is stored again. */
  noClientId?: boolean;
  /** No `read.receipt` frames at all (neither "agent started" nor another device's read mark). */
  noReadReceipts?: boolean;
  /** `channel.renamed` carries only `{chat_id, name}` (the schema's shape), never the whole entry. */
  renamedNameOnly?: boolean;
  /** `hello.ack` without `channels`: the app must ask `channel.list`. */
  helloAckWithoutChannels?: boolean;
  /** `hello.ack` with `channels: []` whatever it has: protocol.py's `hello_ack(caps, cursor)` called without them. */
  helloAckEmptyChannels?: boolean;
  /** `history` pages without `oldest_message_id`. */
  historyWithoutOldest?: boolean;
  /** `media.offer` without `message_id` (protocol.py: the app attaches it to the lane's last assistant message). */
  mediaOfferWithoutMessageId?: boolean;
  /** `server_caps.push` as another gateway would say it (the reference says `webpush` or `none`). */
  push?: 'fcm' | 'ntfy' | 'none';
  /**
   * Frames from a newer gateway: an unknown frame type before every streamed reply, an unknown
   * notification kind after hello.ack, and an unknown `agent.busy` reason while it works.
   */
  unknownFrames?: boolean;
  /**
   * Answers that are only ever answers (history pages, search results, the directory and catalog,
   * media acks and ends, sync.done) carry no request id: protocol.py's `channel_list` cannot set one,
   * and its other helpers leave it out unless given. Nor do the channel broadcasts that answer a
   * channel request (`channel.created`, `.renamed`, `.deleted`): protocol.py's builders take no id.
   */
  answersWithoutIds?: boolean;
  /**
   * No `sync` (protocol.py's milestones 1 and 2: the outbox is milestone 3): it is answered as an unknown
   * frame type, `error{unsupported}` without the request id, and nothing is replayed.
   */
  noSync?: boolean;
  /** No slash-command catalog or completion (protocol.py has neither): answered as unknown frame types, likewise. */
  noCatalog?: boolean;
  /** Errors carry no request id: protocol.py's `error(code, message)` leaves it out unless given one. */
  errorsWithoutIds?: boolean;
  /** No `agent.busy` or `agent.idle` (protocol.py has no constructor for them): only the stream and `typing` say it works. */
  noAgentFrames?: boolean;
  /** Every `ts` in epoch seconds (`int(time.time())` in Python), not the schema's milliseconds. */
  tsInSeconds?: boolean;
  /** No `ts` anywhere: messages, stops, history entries, search hits, notifications (protocol.py's `ts=None`). */
  noTs?: boolean;
  /** Its clock is this many ms ahead of the browser's: every `ts` it sends is that much later. */
  clockAheadMs?: number;
  /** An answered picker is closed (agent.busy/idle) only on the device that answered; the others keep it. */
  stalePickers?: boolean;
  /**
   * No live cursor and no replay batches (this project's extensions, spec README §16): frames carry no
   * `cursor`, so the app stores one only at `sync.done`, and a reconnect replays everything since the
   * last sync, whole turns the app already has among them.
   */
  noLiveCursor?: boolean;
}

/** The frame types a newer gateway might send that this protocol version does not define. */
export const UNKNOWN_FRAME_TYPE = 'turn.plan';
export const UNKNOWN_NOTIFICATION_KIND = 'weather';
export const UNKNOWN_BUSY_REASON = 'pondering';

interface WireFrame {
  v: number;
  type: string;
  id?: number;
  chat_id?: string;
  thread_id?: string;
  payload: Record<string, unknown>;
}

function withoutKey<T extends object>(obj: T, key: string): T {
  const { [key]: _dropped, ...rest } = obj as Record<string, unknown>;
  return rest as T;
}

const seconds = (ms: unknown) => (typeof ms === 'number' ? Math.floor(ms / 1000) : ms);
const later = (ms: unknown, by: number) => (typeof ms === 'number' ? ms + by : ms);

/** The frame with its payload's `ts`, and that of each history message or search hit, changed by `change`. */
function withTs(f: WireFrame, change: (item: Record<string, unknown>) => Record<string, unknown>): WireFrame {
  let payload = { ...f.payload };
  if ('ts' in payload) payload = change(payload);
  for (const key of ['messages', 'hits']) {
    const list = payload[key];
    if (Array.isArray(list)) payload[key] = list.map(change);
  }
  return { ...f, payload };
}

/** The request id a broadcast's copy for its requester carries (hub.ts adds it): none under answersWithoutIds. */
export function quirkReplyId(type: string, id: number | undefined, q: GatewayQuirks | undefined): number | undefined {
  return q?.answersWithoutIds && answersWithoutIdType(type) ? undefined : id;
}

/** An encoded frame without its envelope's `cursor` (noLiveCursor sends no batches). */
export function withoutCursor(text: string): string {
  const frame = JSON.parse(text) as { cursor?: unknown };
  delete frame.cursor;
  return JSON.stringify(frame);
}

/**
 * What the quirky gateway puts on the wire instead of `frame`: usually one frame, none when it would
 * not send it at all, or more when it sends extra ones first. Applied to every frame once, before it
 * is encoded (live copies and outbox copies alike).
 */
export function quirkFrames(frame: ServerFrame, q: GatewayQuirks | undefined): ServerFrame[] {
  if (!q) return [frame];
  // Quirks write what the typed frames forbid (unknown types and values): plain records here.
  let f = frame as unknown as WireFrame;
  const out: WireFrame[] = [];
  if (q.noReadReceipts && f.type === 'read.receipt') return [];
  if (q.threadOwnChatId && f.thread_id !== undefined) {
    f = withoutKey({ ...f, chat_id: f.thread_id }, 'thread_id');
  }
  if (q.noClientId && f.type === 'message') f = { ...f, payload: withoutKey(f.payload, 'client_id') };
  if (q.noClientId && f.type === 'history' && Array.isArray(f.payload.messages)) {
    f = {
      ...f,
      payload: { ...f.payload, messages: (f.payload.messages as object[]).map((m) => withoutKey(m, 'client_id')) },
    };
  }
  if (q.renamedNameOnly && f.type === 'channel.renamed') {
    f = { ...f, payload: { chat_id: f.payload.chat_id, name: f.payload.name } };
  }
  if (q.helloAckWithoutChannels && f.type === 'hello.ack') f = { ...f, payload: withoutKey(f.payload, 'channels') };
  if (q.helloAckEmptyChannels && f.type === 'hello.ack') f = { ...f, payload: { ...f.payload, channels: [] } };
  if (q.historyWithoutOldest && f.type === 'history') f = { ...f, payload: withoutKey(f.payload, 'oldest_message_id') };
  if (q.mediaOfferWithoutMessageId && f.type === 'media.offer')
    f = { ...f, payload: withoutKey(f.payload, 'message_id') };
  if (q.noAgentFrames && (f.type === 'agent.busy' || f.type === 'agent.idle')) return [];
  if (q.answersWithoutIds && answersWithoutIdType(f.type)) f = withoutKey(f, 'id');
  if (q.errorsWithoutIds && f.type === 'error') f = withoutKey(f, 'id');
  if (q.tsInSeconds && f.type !== 'pong') f = withTs(f, (item) => ({ ...item, ts: seconds(item.ts) }));
  if (q.noTs && f.type !== 'pong') f = withTs(f, (item) => withoutKey(item, 'ts'));
  if (q.clockAheadMs && f.type !== 'pong') f = withTs(f, (item) => ({ ...item, ts: later(item.ts, q.clockAheadMs!) }));
  if (q.push && f.type === 'hello.ack') {
    f = { ...f, payload: { ...f.payload, server_caps: { ...(f.payload.server_caps as object), push: q.push } } };
  }
  if (q.unknownFrames) {
    if (f.type === 'agent.busy' && f.payload.reason === 'processing')
      f = { ...f, payload: { ...f.payload, reason: UNKNOWN_BUSY_REASON } };
    if (f.type === 'message.start') {
      const scope = {
        ...(f.chat_id !== undefined && { chat_id: f.chat_id }),
        ...(f.thread_id !== undefined && { thread_id: f.thread_id }),
      };
      out.push({ v: 1, type: UNKNOWN_FRAME_TYPE, ...scope, payload: { steps: 3, message_id: f.payload.message_id } });
    }
  }
  out.push(f);
  // After a turn, so it arrives live: the app shows no toasts for what a sync replays.
  if (q.unknownFrames && f.type === 'message.stop') {
    out.push({
      v: 1,
      type: 'notification',
      payload: {
        kind: UNKNOWN_NOTIFICATION_KIND,
        title: 'Sunny on the server',
        body: 'A kind of notification this app does not know.',
        ts: Date.now(),
      },
    });
  }
  return out as unknown as ServerFrame[];
}
