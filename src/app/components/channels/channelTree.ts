// Orders the channel directory for the sidebar: the default channel first, then favorites, then the
// rest in the gateway's order; each channel's threads nested under it in the same order.
import type { ChannelRow } from '../../../store/schema';

export interface ChannelNode {
  channel: ChannelRow;
  isDefault: boolean;
  threads: ChannelRow[];
}

/** The default channel: the one flagged `is_default`, else the one of kind `default`. */
export function defaultChannelId(channels: readonly ChannelRow[]): string | undefined {
  return (channels.find((c) => c.is_default) ?? channels.find((c) => c.kind === 'default'))?.chat_id;
}

function rank(channel: ChannelRow, defaultId: string | undefined): number {
  if (channel.chat_id === defaultId) return 0;
  return channel.favorite ? 1 : 2;
}

function byRankThenOrder(defaultId: string | undefined) {
  return (a: ChannelRow, b: ChannelRow) => rank(a, defaultId) - rank(b, defaultId) || a.order - b.order;
}

/**
 * The sidebar tree. Archived channels (and threads) are left out unless `showArchived`; a thread
 * whose parent is unknown is listed at the top level so it never disappears.
 */
export function channelTree(channels: readonly ChannelRow[], showArchived: boolean): ChannelNode[] {
  const visible = channels.filter((c) => showArchived || !c.archived);
  const defaultId = defaultChannelId(channels);
  const ids = new Set(visible.map((c) => c.chat_id));
  const isNested = (c: ChannelRow) => c.kind === 'thread' && !!c.parent_chat_id && ids.has(c.parent_chat_id);
  const sort = byRankThenOrder(defaultId);
  return visible
    .filter((c) => !isNested(c))
    .sort(sort)
    .map((channel) => ({
      channel,
      isDefault: channel.chat_id === defaultId,
      threads: visible.filter((t) => isNested(t) && t.parent_chat_id === channel.chat_id).sort(sort),
    }));
}

/** The route of a lane: threads live under their parent channel. */
export function laneHref(channel: Pick<ChannelRow, 'chat_id' | 'kind' | 'parent_chat_id'>): string {
  if (channel.kind === 'thread' && channel.parent_chat_id) {
    return `/c/${encodeURIComponent(channel.parent_chat_id)}/t/${encodeURIComponent(channel.chat_id)}`;
  }
  return `/c/${encodeURIComponent(channel.chat_id)}`;
}

/** How many archived entries the toggle would reveal. */
export function archivedCount(channels: readonly ChannelRow[]): number {
  return channels.filter((c) => c.archived).length;
}
