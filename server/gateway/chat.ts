// message.send (echo, client_id de-duplication, hand-off to the agent), read marks from the app,
// and message.delete (spec README §5, §6, §12).
import type { ClientFrameOf, MediaRef } from '../../src/protocol';
import type { ClientSession } from './clientsession';
import { at, messageFrame, optString } from './frames';
import { mediaRefOf } from './mediastore';

const MAX_ID = 200;
const MAX_DELETE = 1000;

export function send(client: ClientSession, frame: ClientFrameOf<'message.send'>): void {
  const { store, hub, agent } = client.ctx;
  const p = frame.payload as Record<string, unknown>;
  // A gateway without the §5 extension neither de-duplicates by client_id nor echoes it (quirk).
  const clientId = client.ctx.raw.quirks?.noClientId ? undefined : optString(p.client_id, MAX_ID);
  if (clientId) {
    const existing = store.conversations.byClient(clientId);
    if (existing) {
      // Already stored: answer exactly as the first time, store nothing, start no turn.
      const addr = store.channels.address(existing.lane);
      if (addr) return client.send({ ...messageFrame(addr, existing), id: frame.id });
    }
  }
  let addr = store.channels.resolve(frame.chat_id, frame.thread_id);
  if (!addr) return client.error('not_found', 'No such channel or thread.', frame.id);
  const text = typeof p.text === 'string' ? p.text : '';
  const media: MediaRef[] = [];
  for (const ref of Array.isArray(p.media_refs) ? p.media_refs : []) {
    const record = typeof ref === 'string' ? (store.media.byRef(ref) ?? store.media.get(ref)) : undefined;
    if (!record)
      return client.error(
        'not_found',
        `Unknown media_ref ${JSON.stringify(String(ref).slice(0, 80))}; upload it first.`,
        frame.id,
      );
    media.push(mediaRefOf(record));
  }
  if (text.trim() === '' && media.length === 0)
    return client.error('unsupported', 'A message needs text or media.', frame.id);
  addr = agent.laneFor(addr, text);
  const stored = store.conversations.append({
    lane: addr.lane,
    role: 'user',
    text,
    ...(media.length ? { media } : {}),
    ...(optString(p.reply_to, MAX_ID) ? { reply_to: p.reply_to as string } : {}),
    ...(clientId ? { client_id: clientId } : {}),
  });
  store.flush(); // the echo says "stored"; make it true before sending it
  hub.emit(messageFrame(addr, stored), { reply: { peer: client, id: frame.id } });
  agent.onUserMessage(addr, stored, client.deviceId);
}

/** The user saw a message: keep the newest mark per lane and tell the user's other devices. */
export function readReceipt(client: ClientSession, frame: ClientFrameOf<'read.receipt'>): void {
  const { store, hub } = client.ctx;
  const messageId = optString(frame.payload.message_id, MAX_ID);
  const message = messageId ? store.conversations.get(messageId) : undefined;
  if (!message) return frame.id === undefined ? undefined : client.error('not_found', 'No such message.', frame.id);
  const addr = store.channels.address(message.lane);
  if (!addr) return;
  const current = store.conversations.readReceipt(message.lane);
  const currentTs = current ? (store.conversations.get(current)?.ts ?? 0) : 0;
  if ((message.ts ?? 0) < currentTs) return; // an older mark changes nothing
  store.conversations.setReadReceipt(message.lane, message.message_id);
  hub.emit(
    { v: 1, type: 'read.receipt', ...at(addr), payload: { chat_id: addr.lane, message_id: message.message_id } },
    { except: client.deviceId },
  );
}

export function deleteMessages(client: ClientSession, frame: ClientFrameOf<'message.delete'>): void {
  const { store, hub } = client.ctx;
  const raw = frame.payload.message_ids;
  const ids = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string').slice(0, MAX_DELETE) : [];
  const removed = store.conversations.remove(ids);
  if (removed.size === 0) return client.error('not_found', 'None of those messages exist.', frame.id);
  let answered = false;
  for (const [lane, messageIds] of removed) {
    const addr = store.channels.address(lane) ?? { lane, chat_id: lane };
    hub.emit(
      { v: 1, type: 'message.deleted', ...at(addr), payload: { message_ids: messageIds } },
      answered ? {} : { reply: { peer: client, id: frame.id } },
    );
    answered = true;
  }
}
