// Row types of the IndexedDB cache. Shared by the app, the service worker and their tests.
import type { Channel, MediaKind, MediaRef, PickerFrame, Role } from '../protocol';

/** settings: one row per key (gatewayUrl, token, deviceId, deviceName, theme, commands, drafts…). */
export interface SettingRow {
  key: string;
  value: unknown;
}

/** channels: the directory as the gateway last described it. */
export interface ChannelRow extends Channel {
  /** Position in the gateway's list, to keep its order. */
  order: number;
}

/** Per-lane state that is not a message (lane = thread_id ?? chat_id, spec README §4). */
export interface LaneRow {
  lane: string;
  /** ts of the newest message the user has seen here (own read, or another device's read.receipt). */
  readTs: number;
  readMessageId?: string;
  busy: boolean;
  busyReason?: string;
  typing: boolean;
  /** Id of the agent turn in progress (tools/commentary attach to it), cleared on agent.idle. */
  turn?: string;
  /** How many turns were opened here; makes turn ids deterministic (`${lane}#${turnSeq}`). */
  turnSeq: number;
  /** History paging: the oldest message id fetched, and whether older pages exist. */
  oldestMessageId?: string;
  hasMore?: boolean;
  /**
   * The last history page asked for here failed at the gateway (an error, or no answer; not a lost
   * connection) and none has landed since: the list says so where messages would appear. Set by the
   * session, cleared by the history reducer.
   */
  historyFailed?: true;
  /**
   * The reply the reader is following while it streams (on screen, at the bottom): not unread while it
   * streams nor when it ends, until the read mark passes it (a reply cannot be marked read before its end).
   */
  following?: string;
  /** A thread the gateway minted for this lane (`channel.created{auto:true}`): the UI moves into it, then clears this. */
  autoThread?: string;
  /** The newest ts a finished message was stored with here: the next one in the same instant goes after it (store/order.ts). */
  lastTs?: number;
}

/** A tool card's state; `done`: it finished and how is not known (history's call without `ok`). */
export type ToolState = 'running' | 'ok' | 'failed' | 'done';
export const TOOL_STATES: readonly string[] = ['running', 'ok', 'failed', 'done'] satisfies ToolState[];

export type MessageStatus = 'streaming' | 'final' | 'pending' | 'sent' | 'read' | 'failed';

/**
 * messages: unique by message_id. A message the user sends is stored at once under
 * `local:<client_id>` with status pending, and replaced by the gateway's echo (status sent).
 */
export interface MessageRow {
  message_id: string;
  lane: string;
  chat_id: string;
  thread_id?: string;
  role: Role;
  text: string;
  reasoning?: string;
  /** ms from message.start to the first text of a streamed reply: how long the agent thought. */
  thought_ms?: number;
  /**
   * While it streams: when its message.start arrived, by this device's clock, where its thinking time
   * starts (its ts places it in the lane, and may be past a question the gateway's clock stamped ahead).
   */
  started_at?: number;
  model?: string;
  tokens?: number;
  /** epoch ms: the gateway's ts, or arrival time while streaming/pending. */
  ts: number;
  status: MessageStatus;
  client_id?: string;
  reply_to?: string;
  media?: MediaRef[];
  /** The agent turn this assistant message belongs to (links its tool cards and commentary). */
  turn?: string;
  /** Why a send failed, in words; on a pending one, why it still waits (no answer yet: it goes again). */
  error?: string;
  /**
   * The person stopped this reply: marked here when this device asks, or by the gateway's `stopped` (this
   * project's extension of message.stop and stored messages; other gateways do not say why a reply ended).
   */
  stopped?: boolean;
  /**
   * This device sent it (its echo replaced the pending bubble here): the gateway's read.receipt says when
   * the agent read it. Another device's message gets none (spec README §5); an answer after it says so.
   */
  sent_here?: boolean;
}

/** activity: tool cards and commentary beats of an agent turn (spec README §7). */
export interface ActivityRow {
  /** `${turn}:tool:${index}` or `${turn}:commentary:${message_id}:<text key>` (one row per beat). */
  id: string;
  lane: string;
  turn: string;
  kind: 'tool' | 'commentary';
  ts: number;
  /** Arrival order within the turn (ts can tie during a fast replay). */
  order: number;
  // tool
  index?: number;
  name?: string;
  preview?: string;
  args?: Record<string, unknown>;
  notes?: string[];
  state?: ToolState;
  duration?: number;
  output?: string;
  // commentary (message_id is indexed so message.deleted can drop the beat)
  message_id?: string;
  text?: string;
}

/** outbox: user intents not yet acknowledged by the gateway, drained in seq order. */
export interface OutboxRow {
  client_id: string;
  /** Strictly increasing order of sending: max(Date.now(), last seq + 1), set by models/outbox enqueue. */
  seq: number;
  lane: string;
  chat_id: string;
  thread_id?: string;
  text: string;
  reply_to?: string;
  /** Local media ids of attachments; uploaded before sending (media issue). */
  attachments?: string[];
  state: 'queued' | 'sending' | 'failed';
  attempts: number;
  error?: string;
  createdAt: number;
}

type MediaState = 'remote' | 'downloading' | 'ready' | 'evicted' | 'failed' | 'local';

/** media: metadata of every attachment known to the app; bytes live in mediaBlobs. */
export interface MediaRow {
  media_id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  filename: string;
  lane?: string;
  message_id?: string;
  state: MediaState;
  /** 0..1 while downloading or uploading. */
  progress?: number;
  lastUsed: number;
  error?: string;
  /** Pixel size of an image or video, once known (reserves its box before it loads). */
  width?: number;
  height?: number;
  /** Seconds of audio, voice or video, once known. */
  duration?: number;
  /** A local attachment (state local) given to a send: its client_id, and its place among the message's files. */
  client_id?: string;
  position?: number;
}

export interface MediaBlobRow {
  media_id: string;
  blob: Blob;
}

/** sync: the outbox cursor per gateway URL (spec README §8). */
export interface SyncRow {
  gateway: string;
  cursor: number;
}

type PickerType = PickerFrame['type'];

/** pickers: open questions from the agent, answerable after a reload until answered or closed. */
export interface PickerRow {
  picker_id: string;
  lane: string;
  type: PickerType;
  payload: PickerFrame['payload'];
  state: 'open' | 'answered' | 'closed';
  answer?: string;
  ts: number;
}

/** toasts: notification frames and errors to show in the app, newest last. */
export interface ToastRow {
  id?: number;
  kind: string;
  title: string;
  body: string;
  lane?: string;
  ts: number;
  /** It went away (timed out, closed, opened) or was never to be shown (a replay): kept to recognise a repeat. */
  done?: boolean;
}
