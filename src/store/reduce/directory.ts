// hello.ack, channel.list/created/renamed/deleted: the channel directory (spec README §4, §12).
import type { Channel, ServerCaps } from '../../protocol';
import type { IrisDB } from '../db';
import { channel, id, isObject, str } from '../../protocol/guards';
import { patchLane } from '../models/lanes';
import { setSetting } from '../models/settings';
import type { ChannelRow } from '../schema';
import type { Handler } from './types';

/**
 * Replace the directory with the gateway's list, keeping its order, and note that the gateway has
 * listed it (an empty directory is then known to be empty); a non-list changes nothing.
 */
async function replaceDirectory(db: IrisDB, list: unknown): Promise<void> {
  if (!Array.isArray(list)) return;
  await setSetting(db, 'directoryListed', true);
  const rows: ChannelRow[] = [];
  for (const item of list) {
    const entry = channel(item);
    if (entry && !rows.some((r) => r.chat_id === entry.chat_id)) rows.push({ ...entry, order: rows.length });
  }
  await db.channels.clear();
  await db.channels.bulkPut(rows);
}

async function nextOrder(db: IrisDB): Promise<number> {
  return ((await db.channels.orderBy('order').last())?.order ?? -1) + 1;
}

/** Store a whole entry, keeping the position of a known one and appending a new one. */
async function putEntry(db: IrisDB, entry: Channel): Promise<boolean> {
  const existing = await db.channels.get(entry.chat_id);
  const row: ChannelRow = { ...entry, order: existing?.order ?? (await nextOrder(db)) };
  await db.channels.put(row);
  return existing === undefined;
}

function serverCaps(value: unknown): ServerCaps | undefined {
  if (!isObject(value)) return undefined;
  const caps: ServerCaps = {};
  for (const key of ['streaming', 'reasoning', 'tools', 'media', 'search', 'pickers'] as const) {
    if (typeof value[key] === 'boolean') caps[key] = value[key];
  }
  const push = str(value.push);
  if (push === 'fcm' || push === 'ntfy' || push === 'none' || push === 'webpush') caps.push = push;
  return caps;
}

/**
 * protocol.py's `hello_ack` writes `channels or []`, so an empty list may only mean "not given": it
 * replaces nothing, and the session asks `channel.list`, whose answer is the directory.
 */
export const helloAck: Handler = async (db, frame) => {
  const list = frame.payload.channels;
  if (Array.isArray(list) && list.length > 0) await replaceDirectory(db, list);
  const caps = serverCaps(frame.payload.server_caps);
  if (caps) await setSetting(db, 'serverCaps', caps);
};

export const channelList: Handler = async (db, frame) => {
  await replaceDirectory(db, frame.payload.channels);
};

export const channelCreated: Handler = async (db, frame) => {
  const entry = channel(frame.payload);
  if (!entry) return;
  const isNew = await putEntry(db, entry);
  // An auto-thread (protocol.py channel_created auto=True) pulls the user of its channel into it;
  // only when it is new, so a replay does not pull them back.
  if (isNew && frame.payload.auto === true && entry.kind === 'thread' && entry.parent_chat_id) {
    await patchLane(db, entry.parent_chat_id, (row) => {
      row.autoThread = entry.chat_id;
      return row;
    });
  }
};

/**
 * protocol.py sends the whole updated entry (also for favorite and icon changes, §12), in which a
 * missing flag means false; the schema promises only chat_id and name. A payload with a `kind` is
 * taken as the whole entry, anything else as a rename of a known entry.
 */
export const channelRenamed: Handler = async (db, frame) => {
  const p = frame.payload;
  if (typeof p.kind === 'string') {
    const entry = channel(p);
    if (entry) await putEntry(db, entry);
    return;
  }
  const chatId = id(p.chat_id);
  const name = str(p.name);
  if (chatId === undefined || name === undefined) return;
  const existing = await db.channels.get(chatId);
  if (existing && existing.name !== name) await db.channels.put({ ...existing, name });
};

/** Archived, not removed: its messages stay readable behind the "archived" toggle. */
export const channelDeleted: Handler = async (db, frame) => {
  const chatId = id(frame.payload.chat_id);
  if (chatId === undefined) return;
  const existing = await db.channels.get(chatId);
  if (existing && !existing.archived) await db.channels.put({ ...existing, archived: true });
};
