import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '../../../store/schema';
import { channelTree, defaultChannelId, laneHref } from './channelTree';

const row = (chat_id: string, order: number, extra: Partial<ChannelRow> = {}): ChannelRow => ({
  chat_id,
  name: chat_id,
  kind: 'channel',
  order,
  ...extra,
});

describe('channelTree', () => {
  const channels: ChannelRow[] = [
    row('a', 0),
    row('home', 1, { kind: 'default', is_default: true }),
    row('b', 2, { favorite: true }),
    row('t1', 3, { kind: 'thread', parent_chat_id: 'a' }),
    row('old', 4, { archived: true }),
    row('t2', 5, { kind: 'thread', parent_chat_id: 'a', favorite: true }),
    row('orphan', 6, { kind: 'thread', parent_chat_id: 'gone' }),
  ];

  it('puts the default first, then favorites, then gateway order, hiding archived', () => {
    expect(channelTree(channels, false).map((n) => n.channel.chat_id)).toEqual(['home', 'b', 'a', 'orphan']);
  });

  it('nests threads under their parent, favorites first', () => {
    const a = channelTree(channels, false).find((n) => n.channel.chat_id === 'a');
    expect(a?.threads.map((t) => t.chat_id)).toEqual(['t2', 't1']);
  });

  it('shows archived entries when asked', () => {
    expect(channelTree(channels, true).map((n) => n.channel.chat_id)).toContain('old');
  });

  it('follows is_default over kind when the default was moved', () => {
    const moved = [row('home', 0, { kind: 'default' }), row('x', 1, { is_default: true })];
    expect(defaultChannelId(moved)).toBe('x');
    expect(channelTree(moved, false)[0]?.channel.chat_id).toBe('x');
  });

  it('makes thread routes under the parent and escapes ids', () => {
    expect(laneHref({ chat_id: 'web:t/1', kind: 'thread', parent_chat_id: 'web:c' })).toBe('/c/web%3Ac/t/web%3At%2F1');
    expect(laneHref({ chat_id: 'web:c', kind: 'channel' })).toBe('/c/web%3Ac');
  });
});
