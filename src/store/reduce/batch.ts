// A batch of frames (a sync replay, a burst of live frames) reduced through one BatchOverlay per run
// of frames whose rules it serves: their reads come from memory, their writes land per table at
// the run's end. Any other frame (a deletion, history, the directory…) is applied to the database
// itself, after the run before it has been written, so every frame still sees the state the frames
// before it left, as when applied one by one.
import { yieldToPage } from '../../lib/yieldToPage';
import { id } from '../../protocol/guards';
import { laneOf } from '../../protocol/lanes';
import type { IrisDB } from '../db';
import { emptyLane } from '../models/lanes';
import { LOCAL_MESSAGE_IDS } from '../models/messages';
import type { LaneRow } from '../schema';
import { turnsOfActivityId } from './activity';
import { BatchOverlay } from './overlay';
import type { Handler, Incoming, ReduceContext } from './types';

/**
 * The frame types whose rules read and write only rows by key and rows by one index value (what
 * the overlay serves): the frames a replay is made of.
 */
const THROUGH_OVERLAY: ReadonlySet<string> = new Set([
  'message',
  'message.start',
  'message.update',
  'message.stop',
  'read.receipt',
  'agent.busy',
  'agent.idle',
  'typing',
  'tool.start',
  'tool.progress',
  'tool.end',
  'commentary',
  // A blind put of one settings row (the gateway's status opens a replay).
  'status',
  'commands.catalog',
]);

/**
 * Reducing in memory runs without a pause of its own (no request is waiting): after this long, the
 * run lets the page have the main thread (a paint, input) before it goes on, in the same transaction.
 */
const SLICE_MS = 10;

export interface BatchFrame {
  frame: Incoming;
  handle: Handler;
}

/** Applies `frames` in order inside the caller's transaction over `tables`. */
export async function reduceBatch(
  db: IrisDB,
  tables: readonly string[],
  frames: readonly BatchFrame[],
  ctx: ReduceContext,
): Promise<void> {
  let i = 0;
  while (i < frames.length) {
    const f = frames[i]!;
    if (!THROUGH_OVERLAY.has(f.frame.type)) {
      await f.handle(db, f.frame, ctx);
      i++;
      continue;
    }
    let end = i;
    while (end < frames.length && THROUGH_OVERLAY.has(frames[end]!.frame.type)) end++;
    const overlay = new BatchOverlay(db, tables);
    await reduceRun(overlay, frames.slice(i, end), ctx, () => overlay.pause());
    await overlay.flush();
    i = end;
  }
}

/** Runs the handlers of `run` over `overlay`, letting the page have the main thread every SLICE_MS. */
async function reduceRun(
  overlay: BatchOverlay,
  run: readonly BatchFrame[],
  ctx: ReduceContext,
  pause: () => Promise<void>,
): Promise<void> {
  await prefetch(
    overlay,
    run.map((r) => r.frame),
  );
  let since = performance.now();
  for (const r of run) {
    await r.handle(overlay.db, r.frame, ctx);
    if (performance.now() - since < SLICE_MS) continue;
    await pause();
    since = performance.now();
  }
}

/**
 * Reduces `frames` in memory before any transaction, when the overlay serves all of them (a replay's
 * chunk), or returns undefined. Inside a Dexie transaction every await of the reduce passes through
 * Dexie's zone (~0.7 s of a 10,000-frame catch-up); here its reads are plain reads as it needs them.
 * The caller writes the result in a transaction that first checks the database still holds what the
 * reduce read (`overlay.unchanged()`), and reduces there again if not.
 */
export async function reduceAhead(
  db: IrisDB,
  tables: readonly string[],
  frames: readonly BatchFrame[],
  ctx: ReduceContext,
  /** An overlay that already knows rows as stored (BatchOverlay.rebased), to reduce over instead of an empty one. */
  base?: BatchOverlay,
): Promise<BatchOverlay | undefined> {
  if (!frames.every((f) => THROUGH_OVERLAY.has(f.frame.type))) return undefined;
  const overlay = base ?? new BatchOverlay(db, tables);
  await reduceRun(overlay, frames, ctx, yieldToPage);
  return overlay;
}

/**
 * Loads, with a few parallel queries, the rows a run of frames will read: its messages, lanes and
 * their directory entries, the pending bubbles its echoes replace, the streaming bubbles an
 * agent.idle ends, the lanes' pickers, and the activity of the turns it will be in.
 */
async function prefetch(overlay: BatchOverlay, frames: readonly Incoming[]): Promise<void> {
  const messageIds = new Set<string>();
  const clientIds = new Set<string>();
  const echoIds = new Set<string>();
  const lanes = new Set<string>();
  /** Per lane, how many turns the run may open: one after each agent.idle, and one at its start. */
  const turnsAhead = new Map<string, number>();
  let idle = false;
  for (const frame of frames) {
    const lane = laneOf(frame);
    if (lane !== undefined) {
      lanes.add(lane);
      if (!turnsAhead.has(lane)) turnsAhead.set(lane, 1);
      if (frame.type === 'agent.idle') turnsAhead.set(lane, turnsAhead.get(lane)! + 1);
    }
    const messageId = id(frame.payload.message_id);
    if (messageId !== undefined) messageIds.add(messageId);
    if (frame.type === 'message' && messageId !== undefined) {
      echoIds.add(messageId);
      const clientId = id(frame.payload.client_id);
      if (clientId !== undefined) clientIds.add(clientId);
    }
    if (frame.type === 'agent.idle') idle = true;
  }
  const laneIds = [...lanes];
  // The echoes' pending bubbles and outbox rows: this device's unanswered sends, a few rows at most, each
  // loaded whole with one request (a key per echo, most of them another device's sends, cost a request each).
  const echoes = clientIds.size > 0;
  await overlay.prefetch([
    { table: 'messages', index: ':id', values: [...messageIds] },
    ...(echoes ? [{ table: 'messages', range: LOCAL_MESSAGE_IDS }] : []),
    { table: 'messages', index: 'client_id', values: [...clientIds] },
    { table: 'messages', index: 'status', values: idle ? ['streaming'] : [] },
    { table: 'media', index: 'message_id', values: [...echoIds] },
    ...(echoes ? [{ table: 'outbox', range: {} }] : []),
    { table: 'lanes', index: ':id', values: laneIds },
    { table: 'channels', index: ':id', values: laneIds },
    { table: 'pickers', index: 'lane', values: laneIds },
  ]);
  if (!overlay.has('lanes') || !overlay.has('activity')) return;
  if (!frames.some((f) => f.type.startsWith('tool.') || f.type === 'commentary')) return;
  // Turns are numbered `${lane}#${turnSeq}` (models/lanes): the open one and those the run may open.
  const laneRows = (await overlay.db.lanes.bulkGet(laneIds)) as (LaneRow | undefined)[];
  const turns: string[] = [];
  laneIds.forEach((lane, n) => {
    const row = laneRows[n] ?? emptyLane(lane);
    if (row.turn) turns.push(row.turn);
    const ahead = Math.min(turnsAhead.get(lane) ?? 0, 500);
    for (let k = 1; k <= ahead; k++) turns.push(`${lane}#${row.turnSeq + k}`);
  });
  // A new card or beat is a get of an id no row has: answered from the turns loaded here.
  overlay.keyImplies('activity', 'turn', (key) => (typeof key === 'string' ? turnsOfActivityId(key) : []));
  await overlay.prefetch([{ table: 'activity', index: 'turn', values: turns }]);
}
