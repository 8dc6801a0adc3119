// Follows a thread the gateway minted for the lane on screen (channel.created{auto:true}): the
// reducer leaves its id in the lane's row (`autoThread`); the UI moves into it once and clears it.
import { useNavigate } from '@solidjs/router';
import { createEffect, createMemo, type Accessor } from 'solid-js';
import { live } from '../../../store/live';
import { clearAutoThread } from '../../../store/models/lanes';
import { iris } from '../../context';
import type { LaneLocation } from '../shell/laneRoute';
import { laneHref } from './channelTree';

export function useAutoThread(location: Accessor<LaneLocation | undefined>): void {
  const { db } = iris();
  const navigate = useNavigate();
  const hint = createMemo(() => {
    const lane = location()?.lane;
    if (!lane) return () => undefined;
    return live(async () => {
      const row = await db.lanes.get(lane);
      if (!row?.autoThread) return undefined;
      const thread = await db.channels.get(row.autoThread);
      return { lane, thread: row.autoThread, href: thread ? laneHref(thread) : undefined };
    }, undefined);
  });

  createEffect(() => {
    const found = hint()();
    const here = location();
    if (!found || !here || found.lane !== here.lane) return;
    // Clear first, so another tab or a re-run does not move the user twice.
    void clearAutoThread(db, found.lane).catch(() => undefined);
    navigate(found.href ?? `/c/${encodeURIComponent(here.chatId)}/t/${encodeURIComponent(found.thread)}`);
  });
}
