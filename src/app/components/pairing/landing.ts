// Where a person lands once pairing connects: the lane the pairing link names, else the default
// channel, as after any sign-in (issue 14, 16.1).
import type { ChannelRow } from '../../../store/schema';
import { defaultChannelId, laneHref } from '../channels/channelTree';

/** The route to open, or undefined while the gateway's directory has not arrived. */
export function landingHref(channels: readonly ChannelRow[], wantedLane?: string): string | undefined {
  const active = channels.filter((c) => !c.archived);
  if (active.length === 0) return undefined;
  const wanted = wantedLane === undefined ? undefined : active.find((c) => c.chat_id === wantedLane);
  if (wanted) return laneHref(wanted);
  const id = defaultChannelId(active);
  const target = active.find((c) => c.chat_id === id) ?? active.find((c) => c.kind !== 'thread') ?? active[0];
  return laneHref(target);
}
