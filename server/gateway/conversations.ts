// Final messages per lane, the client_id index that makes message.send idempotent (spec README §5),
// and the newest read mark per lane (§6). One file per lane keeps each write small.
import { randomUUID } from 'node:crypto';
import type { HistoryMessage } from '../../src/protocol';
import { safeName, type Persistence } from './persistence';

export interface StoredMessage extends HistoryMessage {
  lane: string;
  client_id?: string;
}

interface LaneFile {
  lane: string;
  messages: StoredMessage[];
  read_receipt?: string;
}

export class Conversations {
  private readonly lanes = new Map<string, StoredMessage[]>();
  private readonly byId = new Map<string, StoredMessage>();
  private readonly byClientId = new Map<string, StoredMessage>();
  private readonly receipts = new Map<string, string>();
  private lastTs = 0;

  constructor(private readonly persistence: Persistence) {
    for (const name of persistence.list('lanes')) {
      const file = persistence.readJson<LaneFile>(`lanes/${name}`);
      if (!file || typeof file.lane !== 'string' || !Array.isArray(file.messages)) continue;
      this.lanes.set(file.lane, file.messages);
      for (const m of file.messages) this.index(m);
      if (typeof file.read_receipt === 'string') this.receipts.set(file.lane, file.read_receipt);
    }
  }

  /** Messages of a lane, oldest first (a copy). */
  messages(lane: string): StoredMessage[] {
    return [...(this.lanes.get(lane) ?? [])];
  }

  lanesWithMessages(): string[] {
    return [...this.lanes.keys()];
  }

  get(messageId: string): StoredMessage | undefined {
    return this.byId.get(messageId);
  }

  byClient(clientId: string): StoredMessage | undefined {
    return this.byClientId.get(clientId);
  }

  /** A fresh message id. */
  newId(): string {
    return `msg_${randomUUID()}`;
  }

  /** Strictly increasing epoch millis, so a lane's order and its timestamps agree. */
  now(): number {
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    return this.lastTs;
  }

  append(message: Omit<StoredMessage, 'message_id' | 'ts'> & { message_id?: string; ts?: number }): StoredMessage {
    const stored: StoredMessage = {
      ...message,
      message_id: message.message_id ?? this.newId(),
      ts: message.ts ?? this.now(),
    };
    if (this.byId.has(stored.message_id)) throw new Error(`duplicate message_id ${stored.message_id}`);
    let list = this.lanes.get(stored.lane);
    if (!list) this.lanes.set(stored.lane, (list = []));
    list.push(stored);
    this.index(stored);
    this.save(stored.lane);
    return stored;
  }

  /**
   * Store a message kept elsewhere first (a Hermes session's earlier conversation) at its place by
   * time rather than at the end, so the lane stays in time order. One already stored (the same id)
   * is left alone: returns the message only when it was new.
   */
  insertByTime(message: StoredMessage & { ts: number }): StoredMessage | undefined {
    if (this.byId.has(message.message_id)) return undefined;
    let list = this.lanes.get(message.lane);
    if (!list) this.lanes.set(message.lane, (list = []));
    const later = list.findIndex((m) => (m.ts ?? 0) > message.ts);
    list.splice(later < 0 ? list.length : later, 0, message);
    this.index(message);
    this.save(message.lane);
    return message;
  }

  /** Attach media to a stored message (the demo agent's generated image). */
  addMedia(messageId: string, media: NonNullable<HistoryMessage['media']>): void {
    const m = this.byId.get(messageId);
    if (!m) return;
    m.media = [...(m.media ?? []), ...media];
    this.save(m.lane);
  }

  /** Remove messages; returns the removed ones grouped by lane. */
  remove(messageIds: string[]): Map<string, string[]> {
    const removed = new Map<string, string[]>();
    for (const id of new Set(messageIds)) {
      const m = this.byId.get(id);
      if (!m) continue;
      const list = this.lanes.get(m.lane) ?? [];
      const at = list.indexOf(m);
      if (at >= 0) list.splice(at, 1);
      this.byId.delete(id);
      if (m.client_id && this.byClientId.get(m.client_id) === m) this.byClientId.delete(m.client_id);
      removed.set(m.lane, [...(removed.get(m.lane) ?? []), id]);
    }
    for (const lane of removed.keys()) this.save(lane);
    return removed;
  }

  setReadReceipt(lane: string, messageId: string): void {
    this.receipts.set(lane, messageId);
    this.save(lane);
  }

  readReceipt(lane: string): string | undefined {
    return this.receipts.get(lane);
  }

  private index(m: StoredMessage): void {
    this.byId.set(m.message_id, m);
    if (m.client_id) this.byClientId.set(m.client_id, m);
    if (typeof m.ts === 'number' && m.ts > this.lastTs) this.lastTs = m.ts;
  }

  private save(lane: string): void {
    this.persistence.mark(`lanes/${safeName(lane)}.json`, (): LaneFile => ({
      lane,
      messages: this.lanes.get(lane) ?? [],
      read_receipt: this.receipts.get(lane),
    }));
  }
}

/** The wire form of a stored message (history pages, echoes): the lane is in the envelope instead. */
export function toWire(m: StoredMessage): HistoryMessage & { client_id?: string } {
  const { lane: _lane, ...rest } = m;
  return rest;
}
