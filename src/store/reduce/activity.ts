// tool.start/progress/end and commentary: cards and beats of the lane's turn in progress (spec §7).
// Ids are deterministic (`${turn}:tool:${index}`, `${turn}:commentary:${message_id}:<text key>`), so a replayed
// frame lands on the same row.
import type { IrisDB } from '../db';
import type { HistoryTool } from '../../protocol/frames';
import { finite, id, int, isObject, str } from '../../protocol/guards';
import { openTurn } from '../models/lanes';
import type { ActivityRow, MessageRow } from '../schema';
import { laneOf } from '../../protocol/lanes';
import type { Handler, Incoming, ReduceContext } from './types';

/**
 * The turns a row with this id may belong to: every `${turn}:tool:` or `${turn}:commentary:` prefix
 * (a lane name may itself hold those words, so each is a candidate).
 */
export function turnsOfActivityId(rowId: string): string[] {
  const turns: string[] = [];
  for (const mark of [':tool:', ':commentary:'])
    for (let at = rowId.indexOf(mark); at >= 0; at = rowId.indexOf(mark, at + 1)) turns.push(rowId.slice(0, at));
  return turns;
}

/** Tool arguments are stored and shown as JSON; beyond these they are replaced by a note. */
const MAX_ARGS_DEPTH = 32;
const MAX_ARGS_CHARS = 64 * 1024;

/**
 * The arguments as they can be stored and shown. Nested deeper than any real call, they could not
 * even be stored (IndexedDB's copy overflows its stack, and the whole tool.start was lost); very
 * large, every write of the card would carry them.
 */
function showableArgs(args: Record<string, unknown>): Record<string, unknown> {
  const tooDeep = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    if (depth > MAX_ARGS_DEPTH) return true;
    return Object.values(value).some((v) => tooDeep(v, depth + 1));
  };
  if (tooDeep(args, 0)) return { note: 'The arguments are nested too deeply to show.' };
  const json = JSON.stringify(args);
  if (json.length > MAX_ARGS_CHARS) return { note: `The arguments are too large to show (${json.length} characters).` };
  return args;
}

/** Progress notes kept per tool card (the newest). */
export const MAX_TOOL_NOTES = 50;

function sameRow(a: ActivityRow, b: ActivityRow): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Read, change and (only if changed) write the tool card `index` of the lane's open turn. */
async function changeTool(
  db: IrisDB,
  frame: Incoming,
  ctx: ReduceContext,
  change: (row: ActivityRow) => void,
): Promise<void> {
  const lane = laneOf(frame);
  const index = int(frame.payload.index);
  if (lane === undefined || index === undefined || index < 0) return;
  const turn = await openTurn(db, lane);
  const rowId = `${turn}:tool:${index}`;
  const existing = await db.activity.get(rowId);
  const row: ActivityRow = existing
    ? { ...existing, notes: [...(existing.notes ?? [])] }
    : {
        id: rowId,
        lane,
        turn,
        kind: 'tool',
        ts: ctx.now,
        order: await db.activity.where('turn').equals(turn).count(),
        index,
        name: '',
        notes: [],
        state: 'running',
      };
  const name = id(frame.payload.name);
  if (name !== undefined && (!existing || frame.type === 'tool.start' || !row.name)) row.name = name;
  change(row);
  if (!existing || !sameRow(existing, row)) await db.activity.put(row);
}

export const toolStart: Handler = (db, frame, ctx) =>
  changeTool(db, frame, ctx, (row) => {
    const preview = str(frame.payload.preview);
    if (preview !== undefined) row.preview = preview;
    if (isObject(frame.payload.args)) row.args = showableArgs(frame.payload.args);
  });

export const toolProgress: Handler = (db, frame, ctx) =>
  changeTool(db, frame, ctx, (row) => {
    const note = str(frame.payload.note);
    // Appending only a new note keeps a replayed progress frame from repeating it.
    if (note && row.notes!.at(-1) !== note) row.notes!.push(note);
    // Only the newest notes are kept: every note is rewritten with the row, so an endless stream of
    // them (a long tool, a hostile gateway) would make each write slower than the last.
    if (row.notes!.length > MAX_TOOL_NOTES) row.notes!.splice(0, row.notes!.length - MAX_TOOL_NOTES);
  });

export const toolEnd: Handler = (db, frame, ctx) =>
  changeTool(db, frame, ctx, (row) => {
    row.state = frame.payload.ok === false ? 'failed' : 'ok';
    const duration = finite(frame.payload.duration);
    if (duration !== undefined && duration >= 0) row.duration = duration;
    const output = str(frame.payload.output_preview);
    if (output !== undefined) row.output = output;
  });

/**
 * The tool cards of a reply read from history (the `tools` extension), in the reply's own turn: what a
 * device that was not there for the turn shows of it. Same ids on every page that repeats the reply.
 */
export async function putHistoryTools(db: IrisDB, reply: MessageRow, tools: HistoryTool[]): Promise<void> {
  const turn = reply.turn;
  if (turn === undefined || tools.length === 0) return;
  const rows = tools.map((tool, order): ActivityRow => {
    const row: ActivityRow = {
      id: `${turn}:tool:${tool.index}`,
      lane: reply.lane,
      turn,
      kind: 'tool',
      ts: reply.ts,
      order,
      index: tool.index,
      name: tool.name,
      notes: [],
      state: tool.ok === undefined ? 'done' : tool.ok ? 'ok' : 'failed',
    };
    if (tool.preview !== undefined) row.preview = tool.preview;
    if (tool.duration !== undefined) row.duration = tool.duration;
    return row;
  });
  const stored = await db.activity.bulkGet(rows.map((r) => r.id));
  const changed = rows.filter((row, i) => !stored[i] || !sameRow(stored[i]!, row));
  if (changed.length) await db.activity.bulkPut(changed);
}

export const commentary: Handler = async (db, frame, ctx) => {
  const lane = laneOf(frame);
  const messageId = id(frame.payload.message_id);
  const text = str(frame.payload.text);
  if (lane === undefined || messageId === undefined || text === undefined) return;
  const turn = await openTurn(db, lane);
  // A turn has several beats under one message_id (the reply's): the text tells them apart, and a
  // replayed beat still lands on its own row.
  const rowId = `${turn}:commentary:${messageId}:${textKey(text)}`;
  if (await db.activity.get(rowId)) return;
  await db.activity.put({
    id: rowId,
    lane,
    turn,
    kind: 'commentary',
    ts: ctx.now,
    order: await db.activity.where('turn').equals(turn).count(),
    message_id: messageId,
    text,
  });
};

/** A short, stable key for a beat's text (FNV-1a, 32 bits, base 36). */
function textKey(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}
