// The frame reducer: applies server frames to the DB, each in one transaction, idempotently
// (the same frame applied twice leaves the same state: sync replays what may already be here).
// Every field of a frame is untrusted; a frame that does not make sense changes nothing.
import type { ServerFrame, ServerFrameType } from '../protocol';
import { id, isObject } from '../protocol/guards';
import { withQuotaRetry } from './models/mediaCache';
import type { IrisDB } from './db';
import { setCursor } from './models/sync';
import { markHeldWrite } from './liveReads';
import { commentary, toolEnd, toolProgress, toolStart } from './reduce/activity';
import { agentBusy, agentIdle, typing } from './reduce/agent';
import { channelCreated, channelDeleted, channelList, channelRenamed, helloAck } from './reduce/directory';
import { history } from './reduce/history';
import { mediaOffer } from './reduce/media';
import { message, messageDeleted, messageStart, messageStop, messageUpdate, readReceipt } from './reduce/messages';
import { picker } from './reduce/pickers';
import { commandsCatalog, status } from './reduce/settings';
import { syncDone } from './reduce/sync';
import { reduceAhead, reduceBatch } from './reduce/batch';
import { type BatchOverlay, OverlayUnsupported } from './reduce/overlay';
import { gatewayError, notification } from './reduce/toasts';
import type { Handler, Incoming } from './reduce/types';

export interface ApplyContext {
  /** The gateway URL: the key of its sync cursor. Needed for `sync.done` and `cursor`. */
  gateway?: string;
  /** Arrival time in epoch ms (default Date.now()): the ts of rows the gateway gives none. */
  now?: number;
  /** Store this sync cursor for `gateway` in the same transaction (never moves it backwards). */
  cursor?: number;
  /**
   * For a `message` echo without `payload.client_id`: the client_id of the send it answers, when
   * the caller matched it by request id (a gateway without the §5 extension).
   */
  clientId?: string;
  /** The frames came by sync replay: applied as live ones, but announced by no toast. */
  replay?: boolean;
}

/** A table of the DB, by name (Dexie takes names as a transaction's scope). */
type TableName =
  | 'settings'
  | 'channels'
  | 'lanes'
  | 'messages'
  | 'activity'
  | 'outbox'
  | 'media'
  | 'mediaBlobs'
  | 'sync'
  | 'pickers'
  | 'toasts';

interface Rule {
  handle: Handler;
  /** The tables the handler touches: the transaction's scope. */
  tables: readonly TableName[];
}

/** A frame the reducer leaves alone, and why (it is an answer for the caller, not state). */
interface Ignored {
  ignored: string;
}

const messageTables: readonly TableName[] = ['messages', 'outbox', 'lanes', 'channels', 'media'];
const laneActivity: readonly TableName[] = ['lanes', 'activity'];
const pickerTables: readonly TableName[] = ['pickers', 'channels'];

/**
 * What each server frame does to the DB. Every frame type of the protocol has an entry: a new one
 * that nobody handles fails to compile. Search a frame's type name to find its whole effect.
 */
const RULES: { readonly [T in ServerFrameType]: Rule | Ignored } = {
  'hello.ack': { handle: helloAck, tables: ['channels', 'settings'] },
  'channel.list': { handle: channelList, tables: ['channels', 'settings'] },
  'channel.created': { handle: channelCreated, tables: ['channels', 'lanes'] },
  'channel.renamed': { handle: channelRenamed, tables: ['channels'] },
  'channel.deleted': { handle: channelDeleted, tables: ['channels'] },
  // A whole reply may carry its turn's tools (putWhole).
  message: { handle: message, tables: [...messageTables, 'activity'] },
  'message.start': { handle: messageStart, tables: ['messages', 'lanes', 'channels'] },
  'message.update': { handle: messageUpdate, tables: ['messages'] },
  'message.stop': { handle: messageStop, tables: ['messages', 'lanes', 'channels'] },
  'message.deleted': { handle: messageDeleted, tables: ['messages', 'activity', 'media', 'mediaBlobs', 'lanes'] },
  'read.receipt': { handle: readReceipt, tables: ['messages', 'lanes'] },
  'agent.busy': { handle: agentBusy, tables: ['lanes', 'pickers'] },
  'agent.idle': { handle: agentIdle, tables: ['lanes', 'pickers', 'messages'] },
  typing: { handle: typing, tables: ['lanes'] },
  'tool.start': { handle: toolStart, tables: laneActivity },
  'tool.progress': { handle: toolProgress, tables: laneActivity },
  'tool.end': { handle: toolEnd, tables: laneActivity },
  commentary: { handle: commentary, tables: laneActivity },
  'picker.model': { handle: picker, tables: pickerTables },
  'picker.choice': { handle: picker, tables: pickerTables },
  'picker.clarify': { handle: picker, tables: pickerTables },
  'picker.approval': { handle: picker, tables: pickerTables },
  'picker.confirm': { handle: picker, tables: pickerTables },
  notification: { handle: notification, tables: ['toasts'] },
  // One that answers a pending request is settled by the connection and never comes here.
  error: { handle: gatewayError, tables: ['toasts'] },
  history: { handle: history, tables: [...messageTables, 'activity'] },
  'media.offer': { handle: mediaOffer, tables: ['media', 'messages'] },
  'sync.done': { handle: syncDone, tables: ['sync'] },
  'commands.catalog': { handle: commandsCatalog, tables: ['settings'] },
  status: { handle: status, tables: ['settings'] },
  pong: { ignored: 'the heartbeat, read by the connection' },
  'search.results': { ignored: 'the answer to a search, returned to its caller (online search is never stored)' },
  'commands.complete': { ignored: 'the answer to an autocomplete request, returned to its caller' },
  'media.upload.ack': { ignored: 'read by the upload that asked (net/transfers)' },
  'media.pull.end': { ignored: 'read by the download that asked (net/transfers), which stores the bytes' },
};

function ruleFor(type: string): Rule | undefined {
  if (!Object.hasOwn(RULES, type)) return undefined; // unknown types (a newer gateway) change nothing
  const rule = RULES[type as ServerFrameType];
  return 'handle' in rule ? rule : undefined;
}

/**
 * Frame types whose effect depends on a message's text or streaming state (their handlers read or
 * replace message rows): the frame pipeline writes held `message.update`s of their lane before them.
 */
export const READS_MESSAGES: ReadonlySet<string> = new Set(
  Object.keys(RULES).filter((type) => type !== 'message.update' && ruleFor(type)?.tables.includes('messages')),
);

/** The frame's envelope checked, or undefined if it is not a frame this reducer acts on. */
function incoming(frame: unknown): { frame: Incoming; rule: Rule } | undefined {
  if (!isObject(frame)) return undefined;
  const type = id(frame.type);
  const rule = type === undefined ? undefined : ruleFor(type);
  if (type === undefined || rule === undefined) return undefined;
  return {
    frame: {
      type,
      chat_id: id(frame.chat_id),
      thread_id: id(frame.thread_id),
      payload: isObject(frame.payload) ? frame.payload : {},
    },
    rule,
  };
}

function validCursor(ctx: ApplyContext): ctx is ApplyContext & { gateway: string; cursor: number } {
  return typeof ctx.gateway === 'string' && typeof ctx.cursor === 'number';
}

/**
 * Apply one server frame in one transaction. Never throws because of what the frame contains
 * (storage failures do reject, so the caller keeps its cursor). A frame the disk has no room for is
 * not lost: downloaded media (which can be fetched again) makes room, the person is told, and the
 * write is tried once more; only when no media is left to evict does it fail.
 */
export async function applyFrame(db: IrisDB, frame: ServerFrame, ctx: ApplyContext = {}): Promise<void> {
  const found = incoming(frame);
  const storeCursor = validCursor(ctx);
  if (!found && !storeCursor) return;
  const tables: TableName[] = found ? [...found.rule.tables] : [];
  if (storeCursor) tables.push('sync');
  const reduceCtx = { now: ctx.now ?? Date.now(), gateway: ctx.gateway, clientId: ctx.clientId, replay: ctx.replay };
  await withQuotaRetry(db, () =>
    db.transaction('rw', tables, async () => {
      if (found) await found.rule.handle(db, found.frame, reduceCtx);
      if (storeCursor) await setCursor(db, ctx.gateway!, ctx.cursor!);
    }),
  );
}

/**
 * Apply a batch of frames (a sync replay) in one transaction, in order, then store `ctx.cursor`
 * for `ctx.gateway` in that same transaction: either all of it lands with the cursor, or none.
 * The frames are reduced in memory (reduce/batch.ts): the same result as applying them one by
 * one, with a few bulk reads and one bulkPut per changed table. A full disk is met as in applyFrame.
 */
export async function applyFrames(
  db: IrisDB,
  frames: readonly ServerFrame[],
  ctx: Omit<ApplyContext, 'clientId'> = {},
): Promise<void> {
  const found = frames.map(incoming).filter((f) => f !== undefined);
  const storeCursor = validCursor(ctx);
  if (found.length === 0 && !storeCursor) return;
  const tables = [
    ...new Set<TableName>([...found.flatMap((f) => f.rule.tables), ...(storeCursor ? (['sync'] as const) : [])]),
  ];
  const reduceCtx = { now: ctx.now ?? Date.now(), gateway: ctx.gateway, replay: ctx.replay };
  const batch = found.map((f) => ({ frame: f.frame, handle: f.rule.handle }));
  // A replay's chunk is reduced before its transaction. If anything it read has changed since (most
  // often the screen's read mark on the lane row, stored as the lane shows the chunk before), it is
  // reduced before the transaction once more, and after that inside it, as any other batch.
  const reduceFirst = (base?: BatchOverlay) =>
    ctx.replay ? reduceAhead(db, tables, batch, reduceCtx, base).catch(() => undefined) : undefined;
  let ahead = await reduceFirst();
  let again = 1;
  const write = (throughOverlay: boolean) =>
    db.transaction('rw', tables, async () => {
      if (throughOverlay && ahead && (await ahead.unchanged())) await ahead.flush();
      else if (throughOverlay && ahead && again-- > 0) throw new ReducedStale();
      else if (throughOverlay) await reduceBatch(db, tables, batch, reduceCtx);
      else for (const f of batch) await f.handle(db, f.frame, reduceCtx);
      if (storeCursor) await setCursor(db, ctx.gateway!, ctx.cursor!);
      // While the screen's reads are held for the catch-up, they read this at the holder's next wake.
      if (ctx.replay) markHeldWrite();
    });
  const attempt = (): Promise<void> =>
    write(true).catch(async (error: unknown) => {
      // Nothing was written: reduced again from what is stored now.
      if (error instanceof ReducedStale) {
        // Over the rows the check has just read: no request for any of them (the screen often writes the
        // lane row twice in a row, a read mark after a wake; a shorter retry is less often overtaken).
        ahead = await reduceFirst(ahead?.rebased());
        return attempt();
      }
      // A rule asked the overlay for more than it serves: nothing was written, so frame by frame.
      if (!(error instanceof OverlayUnsupported)) throw error;
      console.warn('iris: a batch is applied frame by frame:', error.message);
      return write(false);
    });
  await withQuotaRetry(db, attempt);
}

/** A batch reduced before its transaction read something that has changed since (see applyFrames). */
class ReducedStale extends Error {}
