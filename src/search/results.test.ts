import { describe, expect, it } from 'vitest';
import type { ChannelRow, MessageRow } from '../store/schema';
import { fromGatewayHit, fromLocalRow, laneLabel, resultPath } from './results';

describe('search results', () => {
  it('maps a gateway hit, marking the query in its untrusted snippet as text', () => {
    const item = fromGatewayHit(
      {
        message_id: 'm1',
        chat_id: 'c1',
        thread_id: null,
        role: 'assistant',
        snippet: '…the <b>deploy</b> went fine…',
        ts: 5,
      },
      'deploy',
    );
    expect(item.lane).toBe('c1');
    expect(item.thread_id).toBeUndefined();
    // The words at the gateway's cuts ("…") may be halves: they are left out.
    expect(item.parts).toEqual([
      { text: '… <b>', mark: false },
      { text: 'deploy', mark: true },
      { text: '</b> went …', mark: false },
    ]);
  });

  it("reads a hit's time in seconds (a Python gateway) as seconds", () => {
    const hit = { message_id: 'm', chat_id: 'c', thread_id: null, role: 'user', snippet: 'x' } as const;
    expect(fromGatewayHit({ ...hit, ts: 1_796_000_000 }, 'x').ts).toBe(1_796_000_000_000);
    expect(fromGatewayHit({ ...hit, ts: 1_796_000_000_123 }, 'x').ts).toBe(1_796_000_000_123);
  });

  it('keeps the thread of a hit in a thread', () => {
    const item = fromGatewayHit(
      { message_id: 'm', chat_id: 'c', thread_id: 't', role: 'user', snippet: 'x', ts: 1 },
      'x',
    );
    expect(item.lane).toBe('t');
    expect(resultPath(item)).toBe('/c/c/t/t?m=m');
  });

  it('maps a cached row with a snippet around the match', () => {
    const row: MessageRow = {
      message_id: 'a b',
      lane: 'c/1',
      chat_id: 'c/1',
      role: 'user',
      text: 'hello world',
      ts: 9,
      status: 'sent',
    };
    const item = fromLocalRow(row, 'world');
    expect(item.parts.filter((p) => p.mark).map((p) => p.text)).toEqual(['world']);
    expect(resultPath(item)).toBe('/c/c%2F1?m=a%20b');
  });

  it('names lanes, threads under their channel', () => {
    const rows: ChannelRow[] = [
      { chat_id: 'c', name: 'General', kind: 'default', order: 0 },
      { chat_id: 't', name: 'Plans', kind: 'thread', parent_chat_id: 'c', order: 1 },
    ];
    const byId = new Map(rows.map((r) => [r.chat_id, r]));
    expect(laneLabel(byId, 'c')).toBe('General');
    expect(laneLabel(byId, 't')).toBe('General › Plans');
    expect(laneLabel(byId, 'zzz')).toBe('Unknown chat');
  });
});
