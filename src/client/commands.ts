// What the UI can ask for. Every command goes through the transport (this tab's session or the
// leader tab's); results land in the DB through the reducer, or are returned when transient.
import type {
  Channel,
  ClientFrame,
  CommandInfo,
  FcmRegisterFrame,
  SearchHit,
  SearchScope,
  ServerFrame,
} from '../protocol';
import type { IrisDB } from '../store/db';
import { channel, LOCAL_ID_PREFIX } from '../protocol/guards';
import { keepAcknowledgedChange, laneScope } from '../store/models/channels';
import { markRead as markLaneRead, getLane, setFollowing } from '../store/models/lanes';
import {
  endAgentTurn,
  markStopping,
  newestMessage,
  newestServerMessage,
  oldestServerMessage,
  unmarkStopping,
} from '../store/models/messages';
import { discardSend, queueSend, retry as retrySend } from '../store/models/outbox';
import { answerPicker, closePicker, getPicker, reopenPicker } from '../store/models/pickers';
import { getSetting } from '../store/models/settings';
import { ConnectionLostError, ProtocolError, RequestTimeoutError } from '../net/errors';
import type { UploadMeta } from '../net/transfers';
import type { Transport } from './transport';
import { randomId } from '../lib/randomId';

interface SendOptions {
  reply_to?: string;
  /** Local media ids (rows in media + mediaBlobs) to upload and attach (media issue). */
  attachments?: string[];
}

export interface Commands {
  /** Shows the message at once (pending) and queues it; returns its client_id. Works offline. */
  send(lane: string, text: string, options?: SendOptions): Promise<string>;
  /** Queues a failed send again. */
  retry(clientId: string): Promise<void>;
  /** Drops a pending or failed send (its bubble too). */
  discard(clientId: string): Promise<void>;
  /** The user saw the lane: sets the read mark here and tells the gateway (read.receipt). */
  markRead(lane: string): Promise<void>;
  /** The user left the lane's newest message (scrolled up, hid the page, left the lane). */
  stopReading(lane: string): Promise<void>;
  stopAgent(lane: string): Promise<void>;
  steer(lane: string, text: string): Promise<void>;
  /**
   * Words for the reply being written. The turn may end between the keypress and the gateway
   * (`not_found`): then they go as a plain message instead.
   */
  steerOrSend(lane: string, text: string): Promise<void>;
  /** Answers a picker once; throws if it is not open. */
  selectPicker(pickerId: string, value: string): Promise<void>;
  createChannel(name: string, kind: 'channel' | 'thread', parentChatId?: string): Promise<Channel>;
  renameChannel(chatId: string, name: string): Promise<void>;
  setDefault(chatId: string): Promise<void>;
  favorite(chatId: string, favorite: boolean): Promise<void>;
  setIcon(chatId: string, icon: string, color?: string): Promise<void>;
  archiveChannel(chatId: string): Promise<void>;
  deleteMessages(lane: string, messageIds: string[]): Promise<void>;
  search(query: string, scope: SearchScope, lane?: string): Promise<SearchHit[]>;
  /** Slash-command completion; from the cached catalog when the gateway cannot answer. */
  complete(prefix: string): Promise<CommandInfo[]>;
  /** Fetches the page before the oldest stored message; resolves with whether older pages remain. */
  loadOlder(lane: string): Promise<{ hasMore: boolean }>;
  /** Fetches the newest history page of a lane. */
  loadNewest(lane: string): Promise<void>;
  upload(file: Blob, meta: UploadMeta): Promise<string>;
  pull(mediaId: string): Promise<void>;
  /** Tells the gateway how to wake this device (`fcm.register`, spec README §13); rejects when offline. */
  registerPush(payload: FcmRegisterFrame['payload']): Promise<void>;
}

/** How long slash autocomplete waits for the gateway before answering from the cached catalog. */
const COMPLETE_TIMEOUT_MS = 2000;

/** `work`, or a RequestTimeoutError after `ms` (the work itself is left to finish or fail unheard). */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(what, ms)), ms);
  });
  work.catch(() => undefined); // its error still reaches the caller through the race; this marks it handled if the deadline wins
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function createCommands(db: IrisDB, transport: () => Transport): Commands {
  const t = () => transport();
  const scoped = async (
    lane: string,
    frame: Omit<ClientFrame, 'v' | 'chat_id' | 'thread_id'>,
  ): Promise<ClientFrame> => {
    const scope = await laneScope(db, lane);
    const out = { v: 1, ...frame, chat_id: scope.chat_id } as ClientFrame;
    if (scope.thread_id !== undefined) out.thread_id = scope.thread_id;
    return out;
  };
  /** Channel operations address the entry itself (a thread by its own chat_id, spec README §12). */
  const onChannel = (chatId: string, frame: Omit<ClientFrame, 'v' | 'chat_id'>): ClientFrame =>
    ({ v: 1, ...frame, chat_id: chatId }) as ClientFrame;

  /** An action the reference gateway acknowledges; a gateway that stays silent is not an error. */
  const act = async (frame: ClientFrame): Promise<void> => {
    try {
      await t().request(frame);
    } catch (err) {
      if (!(err instanceof RequestTimeoutError)) throw err;
    }
  };

  const commands: Commands = {
    async send(lane, text, options = {}) {
      if (text.trim() === '' && !options.attachments?.length) throw new Error('A message needs text or an attachment.');
      const scope = await laneScope(db, lane);
      const client_id = randomId();
      const input = {
        client_id,
        lane,
        chat_id: scope.chat_id,
        ...(scope.thread_id !== undefined && { thread_id: scope.thread_id }),
        text,
        ...(options.reply_to !== undefined && { reply_to: options.reply_to }),
      };
      // With attachments, the files are given to the message in the same transaction (media issue); the
      // code that does it loads with the first message that has any.
      if (options.attachments?.length) {
        const { queueSendWithMedia } = await import('../media/outgoing');
        await queueSendWithMedia(db, { ...input, attachments: options.attachments });
      } else await queueSend(db, input);
      t().outboxChanged();
      return client_id;
    },

    async retry(clientId) {
      await retrySend(db, clientId);
      t().outboxChanged();
    },

    async discard(clientId) {
      await discardSend(db, clientId);
    },

    async markRead(lane) {
      const last = await newestMessage(db, lane);
      // A reply being written is seen as it grows; it is marked read (below) once it ends.
      if (last?.status === 'streaming') await setFollowing(db, lane, last.message_id);
      const newest = await newestServerMessage(db, lane);
      if (!newest) return;
      const moved = await markLaneRead(db, lane, newest.message_id, newest.ts);
      if (!moved) return;
      const scope = await laneScope(db, lane);
      const frame = await scoped(lane, {
        type: 'read.receipt',
        payload: { chat_id: scope.lane, message_id: newest.message_id },
      });
      // Offline, the local mark is enough; the next read after reconnecting tells the gateway.
      await t()
        .notify(frame)
        .catch(() => {});
    },

    async stopReading(lane) {
      if ((await getLane(db, lane)).following !== undefined) await setFollowing(db, lane, undefined);
    },

    async stopAgent(lane) {
      const stopping = await markStopping(db, lane);
      try {
        await act(await scoped(lane, { type: 'agent.stop', payload: {} }));
      } catch (err) {
        // Nothing runs there (a gateway that lost the turn in a restart says not_found): the reply it will
        // never finish ends here, stopped, with the text it has, as agent.idle would end it. Before, the
        // lane stayed "Writing…" for good, Stop refused each time and Send never back.
        if (err instanceof ProtocolError && err.code === 'not_found') return endAgentTurn(db, lane);
        await unmarkStopping(db, stopping);
        throw err;
      }
    },

    async steer(lane, text) {
      if (text.trim() === '') throw new Error('A steer needs text.');
      await act(await scoped(lane, { type: 'agent.steer', payload: { text } }));
    },

    async steerOrSend(lane, text) {
      try {
        await commands.steer(lane, text);
      } catch (err) {
        if (!(err instanceof ProtocolError && err.code === 'not_found')) throw err;
        await commands.send(lane, text);
      }
    },

    async selectPicker(pickerId, value) {
      const picker = await getPicker(db, pickerId);
      if (!picker) throw new Error('That question is no longer open.');
      const frame = await scoped(picker.lane, { type: 'picker.select', payload: { picker_id: pickerId, value } });
      // Answered here first, so the dialog closes at once and a double tap cannot answer twice.
      if (!(await answerPicker(db, pickerId, value))) throw new Error('That question was already answered.');
      try {
        await act(frame);
      } catch (err) {
        // Never reached the gateway: the question stays answerable.
        if (err instanceof ConnectionLostError) await reopenPicker(db, pickerId);
        // Refused: an invalid value leaves the question open at the gateway (answer it again); any other
        // refusal (not_found: answered on another device) means it is gone there, so it closes here too.
        if (err instanceof ProtocolError) {
          await (err.code === 'unsupported' ? reopenPicker(db, pickerId) : closePicker(db, pickerId));
        }
        throw err;
      }
    },

    async createChannel(name, kind, parentChatId) {
      const payload: { name: string; kind: 'channel' | 'thread'; parent_chat_id?: string } = { name, kind };
      if (parentChatId !== undefined) payload.parent_chat_id = parentChatId;
      const answer = await t().request({ v: 1, type: 'channel.create', payload });
      // Checked here, once, for every caller: the answer is the gateway's word.
      const created = channel(answer.payload);
      if (!created) throw new Error('The gateway answered without a usable channel.');
      return created;
    },

    async renameChannel(chatId, name) {
      await t().request(onChannel(chatId, { type: 'channel.rename', payload: { name } }));
    },

    async setDefault(chatId) {
      const answer = await t().request(onChannel(chatId, { type: 'channel.set_default', payload: {} }));
      await keepAcknowledgedChange(db, chatId, answer, { is_default: true });
    },

    async favorite(chatId, favorite) {
      const answer = await t().request(onChannel(chatId, { type: 'channel.favorite', payload: { favorite } }));
      await keepAcknowledgedChange(db, chatId, answer, { favorite });
    },

    async setIcon(chatId, icon, color) {
      const payload: { icon: string; color?: string } = { icon };
      if (color !== undefined) payload.color = color;
      const answer = await t().request(onChannel(chatId, { type: 'channel.icon', payload }));
      await keepAcknowledgedChange(db, chatId, answer, color === undefined ? { icon } : { icon, color });
    },

    async archiveChannel(chatId) {
      await t().request(onChannel(chatId, { type: 'channel.delete', payload: {} }));
    },

    async deleteMessages(lane, messageIds) {
      // A message that never left this device is deleted here only.
      const local = messageIds.filter((id) => id.startsWith(LOCAL_ID_PREFIX));
      const remote = messageIds.filter((id) => !id.startsWith(LOCAL_ID_PREFIX));
      for (const id of local) await discardSend(db, id.slice(LOCAL_ID_PREFIX.length));
      if (remote.length === 0) return;
      await t().request(await scoped(lane, { type: 'message.delete', payload: { message_ids: remote } }));
    },

    async search(query, scope, lane) {
      let frame: ClientFrame = { v: 1, type: 'search', payload: { query, scope } };
      if (scope === 'chat') {
        if (!lane) throw new Error('Searching this chat needs a lane.');
        const s = await laneScope(db, lane);
        frame = {
          v: 1,
          type: 'search',
          payload: { query, scope, chat_id: s.chat_id, ...(s.thread_id !== undefined && { thread_id: s.thread_id }) },
        };
      }
      const answer = await t().request(frame);
      const hits = (answer.payload as { hits?: unknown }).hits;
      return Array.isArray(hits) ? hits.filter(isHit) : [];
    },

    async complete(prefix) {
      try {
        // Autocomplete must keep up with typing: past the deadline the cached catalog answers. It
        // covers the whole wait (a request also waits for a sync replay or the leader tab); the
        // request's own timeout only drops its pending entry at the same moment.
        const request = t().request({ v: 1, type: 'commands.complete', payload: { prefix } }, COMPLETE_TIMEOUT_MS);
        const answer = await withDeadline(request, COMPLETE_TIMEOUT_MS, 'commands.complete');
        const matches = (answer.payload as { matches?: unknown }).matches;
        return Array.isArray(matches) ? matches.filter(isCommand) : [];
      } catch (err) {
        if (err instanceof ProtocolError && err.code !== 'unsupported') throw err;
        const bare = prefix.replace(/^\//, '').toLowerCase();
        const catalog = (await getSetting(db, 'commands')) ?? [];
        return catalog.filter((c) => isCommand(c) && c.name.replace(/^\//, '').toLowerCase().startsWith(bare));
      }
    },

    async loadOlder(lane) {
      const row = await getLane(db, lane);
      if (row.hasMore === false) return { hasMore: false };
      const before = row.oldestMessageId ?? (await oldestServerMessage(db, lane))?.message_id;
      const page = await t().fetchHistory(lane, before);
      return { hasMore: historyHasMore(page) };
    },

    async loadNewest(lane) {
      await t().fetchHistory(lane);
    },

    upload: (file, meta) => t().upload(file, meta),
    pull: (mediaId) => t().pull(mediaId),

    async registerPush(payload) {
      // The gateway answers nothing; every later hello repeats it (see src/push/registration.ts).
      await t().notify({ v: 1, type: 'fcm.register', payload });
    },
  };
  return commands;
}

function historyHasMore(page: ServerFrame): boolean {
  return page.type === 'history' && page.payload.has_more === true;
}

function isHit(h: unknown): h is SearchHit {
  const o = h as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && typeof o.message_id === 'string' && typeof o.chat_id === 'string';
}

function isCommand(c: unknown): c is CommandInfo {
  const o = c as Record<string, unknown> | null;
  return typeof o === 'object' && o !== null && typeof o.name === 'string';
}
