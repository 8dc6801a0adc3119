// The channel directory as the UI shows it, and the wire scope (chat_id/thread_id) of a lane.
import type { IrisDB } from '../db';
import type { ChannelRow } from '../schema';
import { getSetting } from './settings';

export interface ChannelNode {
  channel: ChannelRow;
  /** Threads of this channel, favorites first, then in the gateway's order. */
  threads: ChannelRow[];
}

function rank(row: ChannelRow): number {
  if (row.is_default || row.kind === 'default') return 0;
  return row.favorite ? 1 : 2;
}

function byRankThenOrder(a: ChannelRow, b: ChannelRow): number {
  return rank(a) - rank(b) || a.order - b.order;
}

/**
 * The directory as a tree: the default channel first, then favorites, then the rest (each in the
 * gateway's order), threads nested under their channel. Archived entries (and the threads of an
 * archived channel) are left out unless `archived` is set. A thread whose channel is unknown is
 * shown at the top level rather than lost.
 */
export function buildTree(rows: readonly ChannelRow[], options: { archived?: boolean } = {}): ChannelNode[] {
  const visible = options.archived ? [...rows] : rows.filter((r) => !r.archived);
  const hidden = new Set(rows.filter((r) => !visible.includes(r)).map((r) => r.chat_id));
  const parentOf = (r: ChannelRow) => (r.kind === 'thread' && r.parent_chat_id ? r.parent_chat_id : undefined);
  const nodes = new Map<string, ChannelNode>();
  for (const row of visible) if (parentOf(row) === undefined) nodes.set(row.chat_id, { channel: row, threads: [] });
  for (const row of visible) {
    const parent = parentOf(row);
    if (parent === undefined) continue;
    const node = nodes.get(parent);
    if (node) node.threads.push(row);
    else if (!hidden.has(parent)) nodes.set(row.chat_id, { channel: row, threads: [] });
  }
  const tree = [...nodes.values()].sort((a, b) => byRankThenOrder(a.channel, b.channel));
  for (const node of tree) node.threads.sort(byRankThenOrder);
  return tree;
}

export async function directory(db: IrisDB, options: { archived?: boolean } = {}): Promise<ChannelNode[]> {
  return buildTree(await db.channels.toArray(), options);
}

/** The threads of a channel the list shows under it (not archived), favorites first, then the gateway's order. */
export async function threadsOf(db: IrisDB, chatId: string): Promise<ChannelRow[]> {
  const rows = await db.channels.where('parent_chat_id').equals(chatId).toArray();
  return rows.filter((r) => r.kind === 'thread' && !r.archived).sort(byRankThenOrder);
}

export async function getChannel(db: IrisDB, chatId: string): Promise<ChannelRow | undefined> {
  return db.channels.get(chatId);
}

/** Every channel and thread in the gateway's order (archived ones included). */
export async function channelsInOrder(db: IrisDB): Promise<ChannelRow[]> {
  return db.channels.orderBy('order').toArray();
}

/**
 * The channels not archived, in order, and whether the gateway has listed its directory (so that none
 * means none, not "not here yet"). The mark is read first: stored in the same transaction as the
 * channels it came with, it is then never seen without them.
 */
export async function listedDirectory(db: IrisDB): Promise<{ listed: boolean; channels: ChannelRow[] }> {
  const listed = (await getSetting(db, 'directoryListed')) === true;
  return { listed, channels: (await channelsInOrder(db)).filter((c) => !c.archived) };
}

/** The gateway's default channel, else the first one not archived. */
export async function defaultChannel(db: IrisDB): Promise<ChannelRow | undefined> {
  const rows = await db.channels.orderBy('order').toArray();
  return rows.find((r) => r.is_default && !r.archived) ?? rows.find((r) => !r.archived);
}

export interface LaneScope {
  lane: string;
  chat_id: string;
  thread_id?: string;
}

/**
 * The envelope scope for a lane (spec README §4): a known thread is addressed as
 * chat_id = its channel, thread_id = the thread; anything else as chat_id = the lane.
 */
export async function laneScope(db: IrisDB, lane: string): Promise<LaneScope> {
  const entry = await db.channels.get(lane);
  if (entry?.kind === 'thread' && entry.parent_chat_id) return { lane, chat_id: entry.parent_chat_id, thread_id: lane };
  return { lane, chat_id: lane };
}

/**
 * The gateway acknowledged a change of a channel's extras (favorite, icon, default) with a
 * `channel.renamed` in the schema's shape, `{chat_id, name}` only (protocol.py sends the whole
 * entry, which the reducer stores): that answer acknowledges the change asked for, so it is kept
 * here. An answer carrying the whole entry (a `kind`) is the gateway's word and is left to the reducer.
 */
export async function keepAcknowledgedChange(
  db: IrisDB,
  chatId: string,
  answer: { type: string; payload?: unknown },
  change: Partial<Pick<ChannelRow, 'favorite' | 'icon' | 'color' | 'is_default'>>,
): Promise<void> {
  const payload = (typeof answer.payload === 'object' && answer.payload !== null ? answer.payload : {}) as Record<
    string,
    unknown
  >;
  if (answer.type !== 'channel.renamed' || typeof payload.kind === 'string') return;
  if (payload.chat_id !== undefined && payload.chat_id !== chatId) return;
  await db.transaction('rw', db.channels, async () => {
    if (!(await db.channels.get(chatId))) return;
    if (change.is_default) {
      for (const row of await db.channels.toArray()) {
        if (row.chat_id !== chatId && row.is_default) await db.channels.update(row.chat_id, { is_default: false });
      }
    }
    await db.channels.update(chatId, change);
  });
}
