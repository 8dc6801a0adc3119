// history paging (spec README §9) and search with snippets.
import type { ClientFrameOf, SearchHit } from '../../src/protocol';
import type { ClientSession } from './clientsession';
import { toWire, type StoredMessage } from './conversations';
import { at } from './frames';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_HITS = 50;
const SNIPPET_RADIUS = 40;

export function page(client: ClientSession, frame: ClientFrameOf<'history'>): void {
  const { store } = client.ctx;
  const addr = store.channels.resolve(frame.chat_id, frame.thread_id);
  if (!addr) return client.error('not_found', 'No such channel or thread.', frame.id);
  const rawLimit = frame.payload.limit;
  const limit =
    typeof rawLimit === 'number' && Number.isFinite(rawLimit)
      ? Math.min(MAX_LIMIT, Math.max(1, Math.floor(rawLimit)))
      : DEFAULT_LIMIT;
  const all = store.messages(addr.lane);
  let end = all.length;
  const before = frame.payload.before_message_id;
  if (typeof before === 'string') {
    end = all.findIndex((m) => m.message_id === before);
    if (end < 0) return client.error('not_found', 'before_message_id is not in this lane.', frame.id);
  }
  const start = Math.max(0, end - limit);
  const messages = all.slice(start, end).map(toWire);
  client.send({
    v: 1,
    type: 'history',
    id: frame.id,
    ...at(addr),
    payload: {
      messages,
      has_more: start > 0,
      ...(messages.length ? { oldest_message_id: messages[0].message_id } : {}),
    },
  });
}

export function search(client: ClientSession, frame: ClientFrameOf<'search'>): void {
  const { store } = client.ctx;
  const p = frame.payload as Record<string, unknown>;
  const query = typeof p.query === 'string' ? p.query.trim().slice(0, 500) : '';
  const scope = p.scope === 'chat' ? 'chat' : 'all';
  let lanes = store.conversations.lanesWithMessages();
  if (scope === 'chat') {
    const chatId = typeof p.chat_id === 'string' ? p.chat_id : frame.chat_id;
    const threadId = typeof p.thread_id === 'string' ? p.thread_id : frame.thread_id;
    const addr = store.channels.resolve(chatId, threadId);
    if (!addr) return client.error('not_found', 'No such channel or thread.', frame.id);
    lanes = [addr.lane];
  }
  const hits: SearchHit[] = [];
  if (query !== '') {
    const needle = query.toLowerCase();
    const found: StoredMessage[] = [];
    for (const lane of lanes)
      for (const m of store.messages(lane)) if (m.text.toLowerCase().includes(needle)) found.push(m);
    found.sort((a, b) => (b.ts ?? 0) - (a.ts ?? 0));
    for (const m of found.slice(0, MAX_HITS)) {
      const addr = store.channels.address(m.lane) ?? { lane: m.lane, chat_id: m.lane };
      hits.push({
        message_id: m.message_id,
        chat_id: addr.chat_id,
        thread_id: addr.thread_id ?? null,
        role: m.role,
        snippet: snippet(m.text, needle),
        ts: m.ts ?? 0,
      });
    }
  }
  client.send({ v: 1, type: 'search.results', id: frame.id, payload: { query, scope, hits } });
}

/** The text around the first match, with ellipses where it was cut. */
function snippet(text: string, needleLower: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const at = flat.toLowerCase().indexOf(needleLower);
  if (at < 0) return flat.slice(0, SNIPPET_RADIUS * 2);
  const from = Math.max(0, at - SNIPPET_RADIUS);
  const to = Math.min(flat.length, at + needleLower.length + SNIPPET_RADIUS);
  return (from > 0 ? '…' : '') + flat.slice(from, to) + (to < flat.length ? '…' : '');
}
