// The frame reducer: applies server frames to the DB, each in one transaction, idempotently
// (the same frame applied twice leaves the same state: sync replays what may already be here).
// Every field of a frame is untrusted; a frame that does not make sense changes nothing.
import type { Table } from 'dexie';
import type { ServerFrame } from '../protocol';
import type { IrisDB } from './db';
import { id, isObject } from '../protocol/guards';
import { setCursor } from './models/sync';
import { commentary, toolEnd, toolProgress, toolStart } from './reduce/activity';
import { agentBusy, agentIdle, typing } from './reduce/agent';
import { channelCreated, channelDeleted, channelList, channelRenamed, helloAck } from './reduce/directory';
import { history } from './reduce/history';
import { mediaOffer } from './reduce/media';
import { message, messageDeleted, messageStart, messageStop, messageUpdate, readReceipt } from './reduce/messages';
import { commandsCatalog, notification, status, syncDone } from './reduce/misc';
import { picker } from './reduce/pickers';
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

type Tables = (db: IrisDB) => Table[];

interface Rule {
  handle: Handler;
  /** The tables the handler touches: the transaction's scope. */
  tables: Tables;
}

const messageTables: Tables = (db) => [db.messages, db.outbox, db.lanes, db.channels, db.media];
const laneActivity: Tables = (db) => [db.lanes, db.activity];
const pickerTables: Tables = (db) => [db.pickers, db.channels];

const RULES: Record<string, Rule> = {
  'hello.ack': { handle: helloAck, tables: (db) => [db.channels, db.settings] },
  'channel.list': { handle: channelList, tables: (db) => [db.channels] },
  'channel.created': { handle: channelCreated, tables: (db) => [db.channels, db.lanes] },
  'channel.renamed': { handle: channelRenamed, tables: (db) => [db.channels] },
  'channel.deleted': { handle: channelDeleted, tables: (db) => [db.channels] },
  message: { handle: message, tables: messageTables },
  'message.start': { handle: messageStart, tables: (db) => [db.messages, db.lanes, db.channels] },
  'message.update': { handle: messageUpdate, tables: (db) => [db.messages] },
  'message.stop': { handle: messageStop, tables: (db) => [db.messages, db.lanes, db.channels] },
  'message.deleted': {
    handle: messageDeleted,
    tables: (db) => [db.messages, db.activity, db.media, db.mediaBlobs, db.lanes],
  },
  'read.receipt': { handle: readReceipt, tables: (db) => [db.messages, db.lanes] },
  'agent.busy': { handle: agentBusy, tables: (db) => [db.lanes, db.pickers] },
  'agent.idle': { handle: agentIdle, tables: (db) => [db.lanes, db.pickers, db.messages] },
  typing: { handle: typing, tables: (db) => [db.lanes] },
  'tool.start': { handle: toolStart, tables: laneActivity },
  'tool.progress': { handle: toolProgress, tables: laneActivity },
  'tool.end': { handle: toolEnd, tables: laneActivity },
  commentary: { handle: commentary, tables: laneActivity },
  'picker.model': { handle: picker, tables: pickerTables },
  'picker.choice': { handle: picker, tables: pickerTables },
  'picker.clarify': { handle: picker, tables: pickerTables },
  'picker.approval': { handle: picker, tables: pickerTables },
  'picker.confirm': { handle: picker, tables: pickerTables },
  notification: { handle: notification, tables: (db) => [db.toasts] },
  history: { handle: history, tables: messageTables },
  'media.offer': { handle: mediaOffer, tables: (db) => [db.media, db.messages] },
  'sync.done': { handle: syncDone, tables: (db) => [db.sync] },
  'commands.catalog': { handle: commandsCatalog, tables: (db) => [db.settings] },
  status: { handle: status, tables: (db) => [db.settings] },
  // pong, error, search.results, commands.complete, media.upload.ack, media.pull.end and unknown
  // types are answers for the caller, not state: no rule.
};

/** The frame's envelope checked, or undefined if it is not a frame this reducer acts on. */
function incoming(frame: unknown): { frame: Incoming; rule: Rule } | undefined {
  if (!isObject(frame)) return undefined;
  const type = id(frame.type);
  if (type === undefined || !Object.hasOwn(RULES, type)) return undefined;
  return {
    frame: {
      type,
      chat_id: id(frame.chat_id),
      thread_id: id(frame.thread_id),
      payload: isObject(frame.payload) ? frame.payload : {},
    },
    rule: RULES[type],
  };
}

function validCursor(ctx: ApplyContext): ctx is ApplyContext & { gateway: string; cursor: number } {
  return typeof ctx.gateway === 'string' && typeof ctx.cursor === 'number';
}

/**
 * Apply one server frame in one transaction. Never throws because of what the frame contains
 * (storage failures, e.g. a full disk, do reject, so the caller keeps its cursor).
 */
export async function applyFrame(db: IrisDB, frame: ServerFrame, ctx: ApplyContext = {}): Promise<void> {
  const found = incoming(frame);
  const storeCursor = validCursor(ctx);
  if (!found && !storeCursor) return;
  const tables = found ? found.rule.tables(db) : [];
  if (storeCursor) tables.push(db.sync);
  const reduceCtx = { now: ctx.now ?? Date.now(), gateway: ctx.gateway, clientId: ctx.clientId };
  await db.transaction('rw', tables, async () => {
    if (found) await found.rule.handle(db, found.frame, reduceCtx);
    if (storeCursor) await setCursor(db, ctx.gateway!, ctx.cursor!);
  });
}

/**
 * Apply a batch of frames (a sync replay) in one transaction, in order, then store `ctx.cursor`
 * for `ctx.gateway` in that same transaction: either all of it lands with the cursor, or none.
 */
export async function applyFrames(
  db: IrisDB,
  frames: readonly ServerFrame[],
  ctx: Omit<ApplyContext, 'clientId'> = {},
): Promise<void> {
  const found = frames.map(incoming).filter((f) => f !== undefined);
  const storeCursor = validCursor(ctx);
  if (found.length === 0 && !storeCursor) return;
  const tables = [...new Set([...found.flatMap((f) => f.rule.tables(db)), ...(storeCursor ? [db.sync] : [])])];
  const now = ctx.now ?? Date.now();
  await db.transaction('rw', tables, async () => {
    for (const f of found) await f.rule.handle(db, f.frame, { now, gateway: ctx.gateway, replay: ctx.replay });
    if (storeCursor) await setCursor(db, ctx.gateway!, ctx.cursor!);
  });
}
