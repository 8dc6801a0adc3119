// Channel directory requests. Every change is broadcast to all devices (and outboxed); the
// requester's copy carries its request id. favorite/icon/set_default answer with channel.renamed
// carrying the whole entry, as protocol.py's channel_renamed(entry) does (spec README §12).
import type { Channel, ClientFrameOf } from '../../src/protocol';
import type { ClientSession } from './clientsession';
import { cleanName } from './directory';

const MAX_ICON = 32;
const COLOR = /^#[0-9a-fA-F]{3,8}$|^[a-z]{3,20}$/;

function target(
  client: ClientSession,
  frame: { chat_id?: string; thread_id?: string; id?: number },
): Channel | undefined {
  const key = frame.thread_id ?? frame.chat_id;
  const entry = key === undefined ? undefined : client.ctx.store.channels.get(key);
  if (!entry) client.error('not_found', 'No such channel or thread.', frame.id);
  return entry;
}

function renamed(client: ClientSession, entry: Channel, id?: number): void {
  client.ctx.hub.emit({ v: 1, type: 'channel.renamed', payload: entry }, { reply: { peer: client, id } });
}

export function create(client: ClientSession, frame: ClientFrameOf<'channel.create'>): void {
  const { store, hub } = client.ctx;
  const p = frame.payload as Record<string, unknown>;
  const name = cleanName(p.name);
  if (name === '') return client.error('unsupported', 'A channel needs a name.', frame.id);
  const kind = p.kind === 'thread' ? 'thread' : 'channel';
  let parent: string | undefined;
  if (kind === 'thread') {
    const parentEntry = typeof p.parent_chat_id === 'string' ? store.channels.get(p.parent_chat_id) : undefined;
    if (!parentEntry) return client.error('not_found', 'A thread needs an existing parent_chat_id.', frame.id);
    // Threads do not nest: a thread of a thread belongs to the same channel.
    parent = parentEntry.kind === 'thread' ? (parentEntry.parent_chat_id ?? undefined) : parentEntry.chat_id;
  }
  const entry = store.channels.create(name, kind, parent);
  store.flush();
  hub.emit({ v: 1, type: 'channel.created', payload: entry }, { reply: { peer: client, id: frame.id } });
}

export function rename(client: ClientSession, frame: ClientFrameOf<'channel.rename'>): void {
  const entry = target(client, frame);
  if (!entry) return;
  const name = cleanName(frame.payload.name);
  if (name === '') return client.error('unsupported', 'A channel needs a name.', frame.id);
  renamed(client, client.ctx.store.channels.update(entry.chat_id, { name })!, frame.id);
}

export function setDefault(client: ClientSession, frame: ClientFrameOf<'channel.set_default'>): void {
  const entry = target(client, frame);
  if (!entry) return;
  if (entry.kind === 'thread' || entry.archived)
    return client.error('unsupported', 'Only an active channel can be the default.', frame.id);
  const changed = client.ctx.store.channels.setDefault(entry.chat_id);
  const chosen = changed.find((c) => c.chat_id === entry.chat_id) ?? client.ctx.store.channels.get(entry.chat_id)!;
  for (const c of changed) if (c.chat_id !== entry.chat_id) renamed(client, c);
  renamed(client, chosen, frame.id);
}

/** Delete = archive (soft delete): the entry stays, archived, and its threads with it. */
export function archive(client: ClientSession, frame: ClientFrameOf<'channel.delete'>): void {
  const { store, hub } = client.ctx;
  const entry = target(client, frame);
  if (!entry) return;
  if (entry.is_default)
    return client.error(
      'unsupported',
      'The default channel cannot be deleted; make another channel the default first.',
      frame.id,
    );
  for (const thread of store.channels.threadsOf(entry.chat_id)) {
    if (thread.archived) continue;
    store.channels.update(thread.chat_id, { archived: true });
    hub.emit({ v: 1, type: 'channel.deleted', payload: { chat_id: thread.chat_id } });
  }
  store.channels.update(entry.chat_id, { archived: true });
  hub.emit(
    { v: 1, type: 'channel.deleted', payload: { chat_id: entry.chat_id } },
    { reply: { peer: client, id: frame.id } },
  );
}

export function favorite(client: ClientSession, frame: ClientFrameOf<'channel.favorite'>): void {
  const entry = target(client, frame);
  if (!entry) return;
  renamed(
    client,
    client.ctx.store.channels.update(entry.chat_id, { favorite: frame.payload.favorite === true })!,
    frame.id,
  );
}

export function icon(client: ClientSession, frame: ClientFrameOf<'channel.icon'>): void {
  const entry = target(client, frame);
  if (!entry) return;
  const p = frame.payload as Record<string, unknown>;
  const change: Partial<Channel> = {};
  if ('icon' in p) {
    if (p.icon !== null && (typeof p.icon !== 'string' || p.icon.length > MAX_ICON))
      return client.error('unsupported', `icon must be a string of at most ${MAX_ICON} characters.`, frame.id);
    change.icon = (p.icon as string | null) ?? undefined;
    if (change.icon === undefined) change.icon = '';
  }
  if ('color' in p) {
    if (p.color !== null && p.color !== '' && (typeof p.color !== 'string' || !COLOR.test(p.color)))
      return client.error('unsupported', 'color must be #rgb, #rrggbb(aa) or a CSS colour name.', frame.id);
    change.color = typeof p.color === 'string' ? p.color : '';
  }
  renamed(client, client.ctx.store.channels.update(entry.chat_id, change)!, frame.id);
}

export function list(client: ClientSession, frame: ClientFrameOf<'channel.list'>): void {
  client.send({ v: 1, type: 'channel.list', id: frame.id, payload: { channels: client.ctx.store.channels.list() } });
}
