// The Iris wire protocol, typed from ../shared/spec (frames.schema.json, protocol.py, README.md).
// One definition for the app, the service worker and the reference gateway.

export const PROTOCOL_VERSION = 1;

/** The envelope shared by every text frame (spec README §1). */
export interface Envelope<T extends string, P> {
  v: number;
  type: T;
  id?: number;
  chat_id?: string;
  thread_id?: string;
  /** The outbox cursor of a frame the gateway also keeps for this device (spec README §16). */
  cursor?: number;
  payload: P;
}

// ---------------------------------------------------------------------------
// Shared shapes
// ---------------------------------------------------------------------------

export type MediaKind = 'image' | 'audio' | 'video' | 'document' | 'voice';
export type ChannelKind = 'default' | 'channel' | 'thread';
export type Role = 'user' | 'assistant' | 'system' | 'cron';
export type ErrorCode = 'auth' | 'not_found' | 'rate_limited' | 'media_too_large' | 'unsupported' | 'internal';
export type NotificationKind =
  'channel_renamed' | 'channel_created' | 'channel_deleted' | 'cron' | 'approval' | 'clarify' | 'generic';
/** `webpush` is this project's extension (spec README §13). */
export type PushMode = 'fcm' | 'ntfy' | 'none' | 'webpush';
export type BusyReason = 'processing' | 'tool' | 'waiting_input' | 'cron';
export type SearchScope = 'all' | 'chat';
export type StatusState = 'online' | 'restarting' | 'degraded';
export type ApprovalValue = 'once' | 'session' | 'always' | 'deny';

/** A channel directory entry, as protocol.py's `_channel_payload` puts it on the wire. */
export interface Channel {
  chat_id: string;
  name: string;
  kind: ChannelKind;
  parent_chat_id?: string | null;
  is_default?: boolean;
  archived?: boolean;
  favorite?: boolean;
  icon?: string;
  color?: string;
}

export interface MediaRef {
  media_id: string;
  kind: MediaKind;
  mime: string;
  size: number;
  filename: string;
}

/** `PushSubscription.toJSON()` as sent for the `webpush` push mode. */
export interface WebPushSubscription {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

export interface ServerCaps {
  streaming?: boolean;
  reasoning?: boolean;
  tools?: boolean;
  media?: boolean;
  search?: boolean;
  push?: PushMode;
  pickers?: boolean;
}

export interface ClientCaps {
  min_protocol?: number;
  media?: boolean;
  push?: PushMode;
  /** Extension (spec README §17 here, server/gateway/README.md): a sync replay may come as `frames` batches. */
  batches?: boolean;
}

export interface HistoryMessage {
  message_id: string;
  role: Role;
  text: string;
  reasoning?: string;
  media?: MediaRef[];
  reply_to?: string;
  model?: string;
  tokens?: number;
  ts?: number;
  /** Extension (this project's): a reply that ended early because a person stopped it, on whichever device. */
  stopped?: boolean;
  /**
   * Extension (this project's), in history: the tool calls of the turn this reply ended, as their tool.end
   * said, so a device that was not there shows what the turn did (live, the tool frames say it).
   */
  tools?: HistoryTool[];
  /** Extension (this project's), in history: how long the agent thought before the reply's first text, ms. */
  thought_ms?: number;
}

/** One tool call of a reply's turn, as kept in history (the `tools` extension). */
export interface HistoryTool {
  index: number;
  name: string;
  /** Absent: the call finished and how is not known (a session imported from an agent's own records). */
  ok?: boolean;
  /** Seconds, as tool.end's. */
  duration?: number;
  preview?: string;
}

export interface SearchHit {
  message_id: string;
  chat_id: string;
  thread_id?: string | null;
  role: Role;
  snippet: string;
  ts: number;
}

export interface CommandInfo {
  name: string;
  description?: string;
  args_hint?: string;
  category?: string;
}

export interface Choice {
  value: string;
  label: string;
  is_current?: boolean;
}

export interface ModelProvider {
  id: string;
  label: string;
  models: { id: string; label: string }[];
}

// ---------------------------------------------------------------------------
// Server → app
// ---------------------------------------------------------------------------

export type HelloAckFrame = Envelope<
  'hello.ack',
  { server_caps: ServerCaps; sync_cursor: number; channels: Channel[] }
>;
export type MessageFrame = Envelope<
  'message',
  HistoryMessage & {
    /** Extension (spec README §5): echoes the `client_id` of the `message.send` it answers. */
    client_id?: string;
  }
>;
export type MessageStartFrame = Envelope<'message.start', { message_id: string; role: Role }>;
export type MessageUpdateFrame = Envelope<
  'message.update',
  {
    message_id: string;
    text: string;
    /** Extension: the reasoning so far, when it streams before (or with) the text; message.stop has the final one. */
    reasoning?: string;
  }
>;
export type MessageStopFrame = Envelope<
  'message.stop',
  {
    message_id: string;
    final_text: string;
    reasoning?: string;
    model?: string;
    tokens?: number;
    ts?: number;
    /** Extension, as on a stored message: the reply ends here because a person stopped it (agent.stop). */
    stopped?: boolean;
  }
>;
export type MessageDeletedFrame = Envelope<'message.deleted', { message_ids: string[] }>;
export type CommentaryFrame = Envelope<'commentary', { message_id: string; text: string }>;
export type ToolStartFrame = Envelope<
  'tool.start',
  { index: number; name: string; preview?: string; args?: Record<string, unknown> }
>;
export type ToolProgressFrame = Envelope<'tool.progress', { index: number; name: string; note?: string }>;
export type ToolEndFrame = Envelope<
  'tool.end',
  { index: number; name: string; ok: boolean; duration?: number; output_preview?: string }
>;
export type TypingFrame = Envelope<'typing', { on: boolean }>;
export type NotificationFrame = Envelope<
  'notification',
  { kind: NotificationKind; title: string; body: string; ts?: number }
>;
export type PickerModelFrame = Envelope<
  'picker.model',
  { picker_id: string; current_model?: string; current_provider?: string; providers: ModelProvider[] }
>;
export type PickerChoiceFrame = Envelope<'picker.choice', { picker_id: string; title: string; choices: Choice[] }>;
export type PickerClarifyFrame = Envelope<
  'picker.clarify',
  { picker_id: string; question: string; choices?: Choice[] }
>;
export type PickerApprovalFrame = Envelope<
  'picker.approval',
  { picker_id: string; command: string; description?: string }
>;
export type PickerConfirmFrame = Envelope<'picker.confirm', { picker_id: string; title: string; message?: string }>;
export type ChannelListFrame = Envelope<'channel.list', { channels: Channel[] }>;
export type ChannelCreatedFrame = Envelope<'channel.created', Channel & { auto?: boolean }>;
/** protocol.py's `channel_renamed(entry)` carries the whole updated entry; the schema only promises chat_id and name. */
export type ChannelRenamedFrame = Envelope<'channel.renamed', Partial<Channel> & { chat_id: string; name: string }>;
export type ChannelDeletedFrame = Envelope<'channel.deleted', { chat_id: string }>;
export type HistoryFrame = Envelope<
  'history',
  {
    messages: HistoryMessage[];
    has_more: boolean;
    oldest_message_id?: string;
    /** The request's, added by the app on arrival: where entries the gateway gives no ts go. */
    before_message_id?: string;
  }
>;
export type CommandsCatalogFrame = Envelope<'commands.catalog', { commands: CommandInfo[] }>;
export type CommandsCompleteFrame = Envelope<'commands.complete', { prefix: string; matches: CommandInfo[] }>;
export type AgentBusyFrame = Envelope<
  'agent.busy',
  {
    reason?: BusyReason;
    /**
     * Extension (this project's): the busy that follows a `picker.select` names the question and the answer
     * it took, so every device can show what was answered, not only that the question closed.
     */
    answered?: { picker_id: string; value: string };
  }
>;
export type AgentIdleFrame = Envelope<'agent.idle', Record<string, never>>;
export type SearchResultsFrame = Envelope<'search.results', { query: string; scope: SearchScope; hits: SearchHit[] }>;
export type MediaOfferFrame = Envelope<'media.offer', MediaRef & { message_id?: string }>;
export type MediaUploadAckFrame = Envelope<'media.upload.ack', { ok: boolean; media_ref: string }>;
export type MediaPullEndFrame = Envelope<'media.pull.end', { ok: boolean }>;
export type StatusFrame = Envelope<'status', { state: StatusState; session?: Record<string, unknown> }>;
export type ErrorFrame = Envelope<'error', { code: ErrorCode; message: string }>;
export type PongFrame = Envelope<'pong', { ts?: number }>;
export type SyncDoneFrame = Envelope<'sync.done', { cursor: number }>;
/** Gateway → sender: the agent started on the message (spec README §5); also relays another device's read mark (§6). */
export type ReadReceiptServerFrame = Envelope<'read.receipt', { message_id: string; chat_id?: string }>;

export type ServerFrame =
  | HelloAckFrame
  | MessageFrame
  | MessageStartFrame
  | MessageUpdateFrame
  | MessageStopFrame
  | MessageDeletedFrame
  | CommentaryFrame
  | ToolStartFrame
  | ToolProgressFrame
  | ToolEndFrame
  | TypingFrame
  | NotificationFrame
  | PickerModelFrame
  | PickerChoiceFrame
  | PickerClarifyFrame
  | PickerApprovalFrame
  | PickerConfirmFrame
  | ChannelListFrame
  | ChannelCreatedFrame
  | ChannelRenamedFrame
  | ChannelDeletedFrame
  | HistoryFrame
  | CommandsCatalogFrame
  | CommandsCompleteFrame
  | AgentBusyFrame
  | AgentIdleFrame
  | SearchResultsFrame
  | MediaOfferFrame
  | MediaUploadAckFrame
  | MediaPullEndFrame
  | StatusFrame
  | ErrorFrame
  | PongFrame
  | SyncDoneFrame
  | ReadReceiptServerFrame;

export type PickerFrame =
  PickerModelFrame | PickerChoiceFrame | PickerClarifyFrame | PickerApprovalFrame | PickerConfirmFrame;

// ---------------------------------------------------------------------------
// App → server
// ---------------------------------------------------------------------------

export type HelloFrame = Envelope<
  'hello',
  {
    token: string;
    device_id: string;
    device_name?: string;
    caps?: ClientCaps;
    fcm_token?: string;
    ntfy_topic?: string;
    /** Extension (spec README §13): the browser's PushSubscription.toJSON(). */
    webpush?: WebPushSubscription;
  }
>;
export type MessageSendFrame = Envelope<
  'message.send',
  { text: string; reply_to?: string; media_refs?: string[]; /** Extension (spec README §5). */ client_id?: string }
>;
export type MessageDeleteFrame = Envelope<'message.delete', { message_ids: string[] }>;
export type MediaUploadStartFrame = Envelope<
  'media.upload.start',
  { media_ref: string; kind: MediaKind; mime: string; size: number; filename: string }
>;
export type MediaUploadEndFrame = Envelope<'media.upload.end', { media_ref: string; sha256: string }>;
export type MediaPullFrame = Envelope<'media.pull', { media_id: string }>;
export type PickerSelectFrame = Envelope<'picker.select', { picker_id: string; value: string }>;
export type ChannelCreateFrame = Envelope<
  'channel.create',
  { name: string; kind: 'channel' | 'thread'; parent_chat_id?: string | null }
>;
export type ChannelRenameFrame = Envelope<'channel.rename', { name: string }>;
export type ChannelSetDefaultFrame = Envelope<'channel.set_default', Record<string, never>>;
export type ChannelFavoriteFrame = Envelope<'channel.favorite', { favorite: boolean }>;
export type ChannelIconFrame = Envelope<'channel.icon', { icon?: string; color?: string }>;
export type ChannelDeleteFrame = Envelope<'channel.delete', Record<string, never>>;
export type ChannelListRequestFrame = Envelope<'channel.list', Record<string, never>>;
export type SearchFrame = Envelope<
  'search',
  { query: string; scope: SearchScope; chat_id?: string; thread_id?: string }
>;
export type HistoryRequestFrame = Envelope<'history', { before_message_id?: string; limit?: number }>;
export type CommandsCatalogRequestFrame = Envelope<'commands.catalog', Record<string, never>>;
export type CommandsCompleteRequestFrame = Envelope<'commands.complete', { prefix: string }>;
export type AgentStopFrame = Envelope<'agent.stop', Record<string, never>>;
export type AgentSteerFrame = Envelope<'agent.steer', { text: string }>;
export type ReadReceiptFrame = Envelope<'read.receipt', { chat_id: string; message_id: string }>;
export type SyncFrame = Envelope<'sync', { cursor: number }>;
export type FcmRegisterFrame = Envelope<
  'fcm.register',
  {
    fcm_token?: string;
    ntfy_topic?: string;
    /** Extension (spec README §13). */ webpush?: WebPushSubscription;
    push?: PushMode;
  }
>;
export type PingFrame = Envelope<'ping', { ts?: number }>;

export type ClientFrame =
  | HelloFrame
  | MessageSendFrame
  | MessageDeleteFrame
  | MediaUploadStartFrame
  | MediaUploadEndFrame
  | MediaPullFrame
  | PickerSelectFrame
  | ChannelCreateFrame
  | ChannelRenameFrame
  | ChannelSetDefaultFrame
  | ChannelFavoriteFrame
  | ChannelIconFrame
  | ChannelDeleteFrame
  | ChannelListRequestFrame
  | SearchFrame
  | HistoryRequestFrame
  | CommandsCatalogRequestFrame
  | CommandsCompleteRequestFrame
  | AgentStopFrame
  | AgentSteerFrame
  | ReadReceiptFrame
  | SyncFrame
  | FcmRegisterFrame
  | PingFrame;

export type ServerFrameType = ServerFrame['type'];
export type ClientFrameType = ClientFrame['type'];

/** The client frame of a given type. */
export type ClientFrameOf<T extends ClientFrameType> = Extract<ClientFrame, { type: T }>;

// Runtime lists, checked against the unions by the compiler (each list must name every member and no more).
type Exhaustive<T extends string, L extends readonly string[]> = [T] extends [L[number]]
  ? [L[number]] extends [T]
    ? L
    : never
  : never;

const serverTypes = [
  'hello.ack',
  'message',
  'message.start',
  'message.update',
  'message.stop',
  'message.deleted',
  'commentary',
  'tool.start',
  'tool.progress',
  'tool.end',
  'typing',
  'notification',
  'picker.model',
  'picker.choice',
  'picker.clarify',
  'picker.approval',
  'picker.confirm',
  'channel.list',
  'channel.created',
  'channel.renamed',
  'channel.deleted',
  'history',
  'commands.catalog',
  'commands.complete',
  'agent.busy',
  'agent.idle',
  'search.results',
  'media.offer',
  'media.upload.ack',
  'media.pull.end',
  'status',
  'error',
  'pong',
  'sync.done',
  'read.receipt',
] as const;
const clientTypes = [
  'hello',
  'message.send',
  'message.delete',
  'media.upload.start',
  'media.upload.end',
  'media.pull',
  'picker.select',
  'channel.create',
  'channel.rename',
  'channel.set_default',
  'channel.favorite',
  'channel.icon',
  'channel.delete',
  'channel.list',
  'search',
  'history',
  'commands.catalog',
  'commands.complete',
  'agent.stop',
  'agent.steer',
  'read.receipt',
  'sync',
  'fcm.register',
  'ping',
] as const;

export const SERVER_FRAME_TYPES: Exhaustive<ServerFrameType, typeof serverTypes> = serverTypes;
export const CLIENT_FRAME_TYPES: Exhaustive<ClientFrameType, typeof clientTypes> = clientTypes;

/** Kinds that are pushed even to a live device (protocol.py HIGH_PRIORITY_NOTIF_KINDS). */
export const HIGH_PRIORITY_NOTIF_KINDS: readonly NotificationKind[] = ['approval', 'clarify', 'cron'];
/** Frames a gateway may drop under backpressure and never outboxes (spec README §8). */
export const COALESCABLE_TYPES: readonly ServerFrameType[] = ['message.update', 'tool.progress'];
