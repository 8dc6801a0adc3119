// Search results as the search page shows them, from the gateway's hits or from the local index.
import type { SearchHit } from '../protocol';
import { epochMs } from '../protocol/guards';
import type { ChannelRow, MessageRow } from '../store/schema';
import { highlight, snippet, type TextPart } from './highlight';
import { plainFromMarkdown, plainSnippet } from './plainText';

export interface SearchResultItem {
  message_id: string;
  chat_id: string;
  thread_id?: string;
  /** thread_id ?? chat_id. */
  lane: string;
  role: string;
  ts: number;
  /** The snippet with the query's words marked (plain text parts, never HTML). */
  parts: TextPart[];
}

/** A gateway hit: its snippet is untrusted Markdown, shown as its plain words, marked by the same rules as local results. */
export function fromGatewayHit(hit: SearchHit, query: string): SearchResultItem {
  const thread = typeof hit.thread_id === 'string' && hit.thread_id !== '' ? hit.thread_id : undefined;
  return {
    message_id: hit.message_id,
    chat_id: hit.chat_id,
    ...(thread !== undefined && { thread_id: thread }),
    lane: thread ?? hit.chat_id,
    role: hit.role,
    ts: epochMs(hit.ts) ?? 0,
    parts: highlight(plainSnippet(typeof hit.snippet === 'string' ? hit.snippet : ''), query),
  };
}

/** A cached message (found by the local index, or a gateway hit this device has): the snippet from its whole text. */
export function fromLocalRow(row: MessageRow, query: string): SearchResultItem {
  return {
    message_id: row.message_id,
    chat_id: row.chat_id,
    ...(row.thread_id !== undefined && { thread_id: row.thread_id }),
    lane: row.lane,
    role: row.role,
    ts: row.ts,
    parts: snippet(plainFromMarkdown(row.text), query),
  };
}

/** The router path that opens the result's lane scrolled to it: /c/<chat>[/t/<thread>]?m=<id>. */
export function resultPath(item: Pick<SearchResultItem, 'chat_id' | 'thread_id' | 'message_id'>): string {
  const lane =
    `/c/${encodeURIComponent(item.chat_id)}` + (item.thread_id ? `/t/${encodeURIComponent(item.thread_id)}` : '');
  return `${lane}?m=${encodeURIComponent(item.message_id)}`;
}

/** "Channel" or "Channel › Thread"; a lane the directory does not know is still named. */
export function laneLabel(channels: ReadonlyMap<string, ChannelRow>, lane: string): string {
  const entry = channels.get(lane);
  if (!entry) return 'Unknown chat';
  const parent = entry.kind === 'thread' && entry.parent_chat_id ? channels.get(entry.parent_chat_id) : undefined;
  return parent ? `${parent.name} › ${entry.name}` : entry.name;
}
