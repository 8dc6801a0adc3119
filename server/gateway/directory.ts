// The channel directory: channels and threads, each an entry as protocol.py's _channel_payload puts
// it on the wire. Threads are entries of kind `thread` with a parent_chat_id (spec README §4).
import { randomUUID } from 'node:crypto';
import type { Channel } from '../../src/protocol';
import type { Persistence } from './persistence';

const FILE = 'channels.json';
export const DEFAULT_CHAT_ID = 'web:default';
const DEMO_CHAT_ID = 'web:demo';
const MAX_NAME_LENGTH = 100;

/** Where a lane's frames go: chat_id = channel, thread_id = the thread's chat_id (spec README §4). */
export interface LaneAddress {
  lane: string;
  chat_id: string;
  thread_id?: string;
}

export class ChannelDirectory {
  private readonly entries = new Map<string, Channel>();

  constructor(private readonly persistence: Persistence) {
    const saved = persistence.readJson<Channel[]>(FILE);
    if (Array.isArray(saved) && saved.length > 0) {
      for (const entry of saved) if (entry && typeof entry.chat_id === 'string') this.entries.set(entry.chat_id, entry);
    }
    if (!this.defaultEntry()) {
      this.entries.set(DEFAULT_CHAT_ID, {
        chat_id: DEFAULT_CHAT_ID,
        name: 'General',
        kind: 'default',
        is_default: true,
      });
      if (!this.entries.has(DEMO_CHAT_ID))
        this.entries.set(DEMO_CHAT_ID, { chat_id: DEMO_CHAT_ID, name: 'Demo', kind: 'channel' });
      this.save();
    }
  }

  list(): Channel[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  get(chatId: string): Channel | undefined {
    const entry = this.entries.get(chatId);
    return entry ? { ...entry } : undefined;
  }

  defaultEntry(): Channel | undefined {
    for (const e of this.entries.values()) if (e.is_default) return e;
    return undefined;
  }

  /** The lane a frame addresses (thread_id ?? chat_id; a bare thread chat_id is tolerated), or undefined if unknown. */
  resolve(chatId: string | undefined, threadId: string | undefined): LaneAddress | undefined {
    const key = threadId ?? chatId ?? this.defaultEntry()?.chat_id;
    if (key === undefined) return undefined;
    return this.address(key);
  }

  /** The envelope address of a known lane. */
  address(lane: string): LaneAddress | undefined {
    const entry = this.entries.get(lane);
    if (!entry) return undefined;
    if (entry.kind === 'thread' && entry.parent_chat_id)
      return { lane, chat_id: entry.parent_chat_id, thread_id: lane };
    return { lane, chat_id: lane };
  }

  create(name: string, kind: 'channel' | 'thread', parentChatId?: string): Channel {
    const chat_id = `web:${kind === 'thread' ? 'thread' : 'chan'}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const entry: Channel = { chat_id, name, kind };
    if (kind === 'thread' && parentChatId) entry.parent_chat_id = parentChatId;
    this.entries.set(chat_id, entry);
    this.save();
    return { ...entry };
  }

  /** Apply changes to an entry; returns the whole updated entry. */
  update(chatId: string, change: Partial<Omit<Channel, 'chat_id' | 'kind'>>): Channel | undefined {
    const entry = this.entries.get(chatId);
    if (!entry) return undefined;
    for (const [key, value] of Object.entries(change) as [keyof Channel, unknown][]) {
      if (value === undefined || value === null || value === false || value === '') delete entry[key];
      else (entry as unknown as Record<string, unknown>)[key] = value;
    }
    this.save();
    return { ...entry };
  }

  /** Make one channel the default; returns every entry whose is_default changed. */
  setDefault(chatId: string): Channel[] {
    const changed: Channel[] = [];
    for (const entry of this.entries.values()) {
      const should = entry.chat_id === chatId;
      if (Boolean(entry.is_default) !== should) {
        if (should) entry.is_default = true;
        else delete entry.is_default;
        changed.push({ ...entry });
      }
    }
    this.save();
    return changed;
  }

  threadsOf(chatId: string): Channel[] {
    return this.list().filter((e) => e.kind === 'thread' && e.parent_chat_id === chatId);
  }

  private save(): void {
    this.persistence.mark(FILE, () => [...this.entries.values()]);
  }
}

/** A channel name as the user meant it: trimmed, inner whitespace collapsed, bounded; '' when unusable. */
export function cleanName(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return raw.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH);
}
